"""``{% jinja "name" %}``: a Jinja2 partial (``web.jinja``) rendered with this template's context.

For the row-heavy lists only; the page around them stays a Django template.
The partial gets the context's values flattened into one dictionary, and its
output is safe: Django's Jinja2 backend escapes as it renders.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

from web.cache.lazy import resolved
from web.numbers import decimal_separator

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context: template.Context, name: str, **values: Any) -> SafeString:
    """The partial ``name`` with this context (its lazy values read) and ``values``; the
    decimal separator looked up once for all its numbers (``web.jinja``'s ``fixed``)."""
    partial = engines["jinja2"].get_template(name)
    given = {key: resolved(value) for key, value in {**context.flatten(), **values}.items()}
    given["decimal_separator"] = decimal_separator()
    return mark_safe(partial.render(given))  # escaped by Jinja2
