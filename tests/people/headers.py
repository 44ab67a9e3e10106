"""Signed-in clients and the site header they are shown, for the header and batch tests."""

from __future__ import annotations

from django.test import Client


def signed_in(user) -> Client:
    """A client with ``user`` signed in."""
    client = Client()
    client.force_login(user)
    return client


def header_of(response) -> str:
    """The ``<header class="site-header">`` of a page's response, up to its end tag."""
    page = response.content.decode()
    return page[page.index('<header class="site-header">') : page.index("</header>")]
