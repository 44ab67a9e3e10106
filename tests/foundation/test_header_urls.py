"""The header's links (web/templatetags/header_urls.py): what ``{% url %}`` gave, per prefix."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_script_prefix, reverse, set_script_prefix

pytestmark = pytest.mark.django_db

NAMES = ["home", "lobby:lobby", "tournaments:tournaments", "tournaments:leaderboards",
         "api-docs", "healthz", "account_login", "account_signup"]  # fmt: skip


def test_the_header_links_are_the_reversed_urls_under_each_script_prefix() -> None:
    client = Client()
    plain = client.get("/").content.decode()
    before = get_script_prefix()
    set_script_prefix("/harbor/")  # as the WSGI handler does for a site mounted there
    try:
        mounted = client.get("/").content.decode()
    finally:
        set_script_prefix(before)
    again = client.get("/").content.decode()
    for name in NAMES:
        assert f'href="{reverse(name)}' in plain, name
        assert f'href="/harbor{reverse(name)}' in mounted, name
        assert f'href="/harbor{reverse(name)}' not in again, name
