"""``{{ name|breakable }}``: a competitor's name that may wrap after its owner's part.

Bot names are ``owner/bot``; on a phone a long one wraps best right after the
slash (``harbourclub/`` then ``cautious-banker-v2``), which browsers do not
offer by themselves. The name is escaped first; only ``<wbr>`` is added.
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def breakable(name: object) -> SafeString:
    return mark_safe(conditional_escape(str(name)).replace("/", "/<wbr>"))
