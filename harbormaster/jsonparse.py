"""JSON from strangers, parsed with a nesting limit.

Python's ``json`` parser recurses once per nested array or object, so a
10 KB body of 5,000 ``[`` raises :class:`RecursionError` (a server error,
and a crashed task where a bot's reply is parsed) instead of a clean
refusal. :func:`loads` first measures the nesting depth with a flat scan of
the text (no recursion, linear time) and parses only text within the limit.

It also refuses what the standard library would accept but the rest of the
service cannot keep: ``NaN``/``Infinity`` (not JSON) and lone UTF-16
surrogates such as ``"\\ud800"`` (valid JSON escapes that no UTF-8 text,
PostgreSQL's included, can store).

Pure functions, no Django: the REST API's parser and the bot client use the
same rules.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted by default.

Far above anything the protocol or the API needs (an action or a game's
options nest three or four levels), far below Python's recursion limit.
"""

_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
"""A complete JSON string (skipped whole, brackets inside it do not count) or a bracket."""
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONRefused(ValueError):
    """Text that :func:`loads` will not parse. ``reason`` is a stable code.

    ``syntax`` (not JSON), ``too_deep`` (nested beyond the limit),
    ``encoding`` (bytes that are not UTF-8), ``constant`` (NaN or Infinity),
    ``surrogate`` (a lone UTF-16 surrogate escape).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (0 for a scalar), without recursion.

    For malformed text the count covers at least the part a parser would read
    before failing, so a text it calls shallow cannot make a parser recurse deeper.
    """
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise JSONRefused("constant", f"{name} is not a JSON value")


def loads(data: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON ``data`` (text, or UTF-8 bytes) nested at most ``max_depth`` deep.

    Raises :class:`JSONRefused` (a ``ValueError``) with a message for the
    sender; never ``RecursionError``.
    """
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONRefused("encoding", f"JSON must be UTF-8: {exc}") from None
    else:
        text = data
    # Nesting cannot exceed the number of opening brackets: most texts need no scan.
    if text.count("[") + text.count("{") > max_depth:
        depth = nesting_depth(text)
        if depth > max_depth:
            raise JSONRefused(
                "too_deep", f"JSON nested {depth} levels deep; at most {max_depth} are accepted"
            )
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise JSONRefused("syntax", f"not valid JSON: {exc}") from None
    # A lone surrogate comes from a \u escape, or from a str given with one in it.
    if "\\u" in text or _SURROGATE.search(text):
        try:
            # Depth is bounded, so this cannot recurse far; strict UTF-8 refuses lone surrogates.
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise JSONRefused(
                "surrogate", "JSON text contains a lone UTF-16 surrogate (\\ud800-\\udfff)"
            ) from None
    return value
