"""``{% header_url "name" %}``: the site header's links, reversed once instead of on every page.

The header is rendered on every page a signed-in person sees, also when the
page itself comes from the page cache (``web.cache.pagecache.site_header``),
and its ten ``{% url %}`` tags were a quarter of that render (about 0.35 ms of
CPU, docs/architecture.md "Signed in, warm"). A link with no arguments is the
same string for every request of one URLconf and script prefix, so it is
kept per (URLconf, script prefix, name). For names without arguments whose
namespace has one instance (``{% url %}`` would pick among several by the
request's ``current_app``); the same escaping as ``{% url %}``.
"""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()


@functools.lru_cache(maxsize=256)
def _reversed(urlconf: Any, prefix: str, name: str) -> str:
    return reverse(name, urlconf=urlconf)


@register.simple_tag
def header_url(name: str) -> str:
    """``reverse(name)`` for this request's URLconf and script prefix, remembered."""
    return _reversed(get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name)


def _forget(**kwargs: Any) -> None:
    _reversed.cache_clear()  # a test changed the URLconf's settings: reverse afresh


setting_changed.connect(_forget, dispatch_uid="header-urls-forget")
