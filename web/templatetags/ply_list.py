"""``{% ply_items plies %}``: the game page's text list of plies, one ``<li>`` per ply.

Written in Python rather than as a template loop because it is the page's
bulk: a 1,031-ply game rendered through ``{% for %}`` (six lookups, two nested
loops and number localisation per ply) took about 40 ms, more than all the
rest of the page once the record is stored; this takes a few. Every text is
escaped (``html.escape``, as Django's own ``escape`` does, without its lazy-text
wrapper, which cost more than the rest); the markup is the one
``static/js/replay.js`` reads (``li.ply``, ``data-ply``).
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

DEFAULT_MARKS = {
    "timeout": ' <span class="default-mark" data-default="timeout">'
    "timed out: the default action was played</span>",
    "fault": ' <span class="default-mark" data-default="fault">'
    "no valid answer: the default action was played</span>",
}
"""The words after a ply the referee played for its seat (``PublicPly.default``)."""


@register.simple_tag
def ply_items(rows: Iterable[dict[str, Any]]) -> SafeString:
    """``rows``: ``{"ply": PublicPly, "who": str, "events": [sentence, ...]}`` as the view gives."""
    parts = []
    for row in rows:
        ply = row["ply"]
        css = "ply chance" if ply.is_chance else "ply"
        item = (
            f'<li class="{css}" data-ply="{int(ply.ply)}">'
            f'<span class="ply-number">{int(ply.ply)}</span> '
            f'<span class="who">{escape(row["who"])}</span>'
        )
        if ply.description:
            item += f' <span class="what">{escape(ply.description)}</span>'
        if ply.default:
            item += DEFAULT_MARKS[ply.default]
        if row["events"]:
            texts = "".join(f"<li>{escape(text)}</li>" for text in row["events"])
            item += f' <ul class="events">{texts}</ul>'
        parts.append(item + "</li>")
    return mark_safe("\n".join(parts))
