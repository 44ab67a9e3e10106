"""A signed-in person's site header kept by the page cache (``pagecache.site_header``,
``web.cache.header``): the render's bytes but for a fresh CSRF token, only for people no game
can be waiting for, and never one person's header for another."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client

from people import services
from tests.factories import CompetitorFactory, UserFactory
from tests.people.headers import header_of, signed_in
from web.cache import pagecache
from web.cache.header import header_variant

from .waiting_games import running_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("page_cache")]

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PAGE = "/leaderboards/"


def rendered_header(client: Client) -> str:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pagecache, "_header_variant", None)  # nothing kept: rendered
        return header_of(client.get(PAGE))


def test_a_kept_header_is_the_render_with_a_fresh_token_of_the_persons_own() -> None:
    ann = services.ensure_person(UserFactory(username="ann-hc", password=None)).user
    client = signed_in(ann)
    client.get(PAGE)  # the page stored
    first, second = client.get(PAGE), client.get(PAGE)  # the header kept, then served kept
    assert first.get("X-Page-Cache") == second.get("X-Page-Cache") == "hit"
    tokens = [TOKEN.search(header_of(page)).group(1) for page in (first, second)]
    assert tokens[0] != tokens[1], "a masked token per response, as {% csrf_token %} writes"
    secret = client.cookies[settings.CSRF_COOKIE_NAME].value
    assert all(_unmask_cipher_token(token) == secret for token in tokens)
    without_token = [
        TOKEN.sub("", header) for header in (header_of(second), rendered_header(client))
    ]
    assert without_token[0] == without_token[1]
    assert "ann-hc" in header_of(second) and "Sign out" in header_of(second)


def test_people_never_get_each_others_header_and_changes_show_at_once() -> None:
    ann = services.ensure_person(UserFactory(username="ann-hc", password=None)).user
    bob = services.ensure_person(UserFactory(username="bob-hc", password=None)).user
    as_ann, as_bob = signed_in(ann), signed_in(bob)
    for _ in range(2):
        assert "ann-hc" in header_of(as_ann.get(PAGE)) and "bob-hc" not in header_of(
            as_ann.get(PAGE)
        )
        assert "bob-hc" in header_of(as_bob.get(PAGE)) and "ann-hc" not in header_of(
            as_bob.get(PAGE)
        )
    assert ">Admin<" not in header_of(as_ann.get(PAGE))
    ann.is_staff = True
    ann.save()
    assert ">Admin<" in header_of(as_ann.get(PAGE))
    ann.username = "ann-renamed"
    ann.save()
    assert "ann-renamed" in header_of(as_ann.get(PAGE))


def test_a_person_a_game_may_wait_for_gets_a_rendered_header_with_the_badge() -> None:
    ann = services.ensure_person(UserFactory(username="ann-hc", password=None))
    client = signed_in(ann.user)
    client.get(PAGE)
    assert "Your move" not in header_of(client.get(PAGE))  # kept: nothing can wait
    rivals = [CompetitorFactory(kind="person") for _ in range(2)]
    running_game([ann.competitor, *rivals], mover=0, seed="header-cache")
    assert header_variant(client.get(PAGE).wsgi_request) is None  # seated: never kept
    assert "Your move" in header_of(client.get(PAGE))
