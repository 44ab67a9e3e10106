"""The home page, the navigation and the admin render for real requests."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import engines
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_home_says_what_the_service_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Harbormaster</h1>" in page
    for game in ("Manila", "Batavia", "Cargo Noir", "Grog Island"):
        assert game in page
    for engine in engines.all_engines():
        assert engine.name in page


def test_navigation_for_anonymous_visitor(client: Client) -> None:
    page = client.get("/").content.decode()
    assert f'href="{reverse("healthz")}"' in page
    assert f'href="{reverse("account_login")}?next=/"' in page
    assert f'href="{reverse("account_signup")}"' in page
    assert f'href="{reverse("admin:index")}"' not in page


def test_navigation_for_staff_links_admin(client: Client) -> None:
    client.force_login(UserFactory(admin=True))
    page = client.get("/").content.decode()
    assert f'href="{reverse("admin:index")}"' in page
    assert "Sign out" in page


def test_home_refuses_post(client: Client) -> None:
    assert client.post("/").status_code == 405


def test_admin_login_page_renders(client: Client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert b'name="password"' in response.content


def test_admin_requires_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_superuser_logs_in_and_sees_admin_index(client: Client) -> None:
    user = UserFactory(admin=True)
    assert client.login(username=user.username, password=DEFAULT_PASSWORD)
    response = client.get("/admin/")
    assert response.status_code == 200
    assert b"Site administration" in response.content


def test_static_stylesheet_is_linked(client: Client) -> None:
    assert b'href="/static/css/site.css"' in client.get("/").content
