"""JSON from strangers, parsed with a nesting limit.

Python's ``json`` parser recurses once per nested array or object, so a
10 KB body of 5,000 ``[`` raises :class:`RecursionError` (a server error,
and a crashed task where a bot's reply is parsed) instead of a clean
refusal. :func:`loads` first measures the nesting depth with a flat scan of
the text (no recursion, linear time) and parses only text within the limit.

It also refuses what the standard library would accept but the rest of the
service cannot keep: ``NaN``/``Infinity`` (not JSON), lone UTF-16
surrogates such as ``"\\ud800"`` (valid JSON escapes that no UTF-8 text,
PostgreSQL's included, can store) and numbers beyond the range of an IEEE 754
double (RFC 7493, I-JSON): an integer of more than 4,300 digits makes
Python's parser raise a bare ``ValueError`` (its guard against quadratic
conversion), a longer exponent such as ``1e400`` silently becomes ``inf``,
which no JSON writer can put back, and a 400-digit integer breaks any later
``float()`` of it. Every failure of parsing, whatever Python raises, is a
:class:`JSONRefused`.

Pure functions, no Django: the REST API's parser and the bot client use the
same rules.
"""

from __future__ import annotations

import json
import math
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

MAX_INT_DIGITS = 308
"""Most digits of an integer: every such integer is within a double's range (below 1e308)."""


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


def _parse_int(digits: str) -> int:
    """An integer literal, refused before conversion if a double could not hold it.

    Checked on the text, so a long literal costs no conversion (which is
    quadratic in its length) and never reaches Python's own digit limit.
    """
    if len(digits) - digits.startswith("-") > MAX_INT_DIGITS:
        raise JSONRefused(
            "number",
            f"an integer of {len(digits) - digits.startswith('-')} digits; "
            f"at most {MAX_INT_DIGITS} are accepted",
        )
    return int(digits)


def _parse_float(literal: str) -> float:
    """A decimal literal, refused if it overflows a double (``1e400`` would be ``inf``)."""
    value = float(literal)
    if not math.isfinite(value):
        raise JSONRefused("number", f"the number {literal[:40]} is beyond a double's range")
    return value


def loads(data: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON ``data`` (text, or UTF-8 bytes) nested at most ``max_depth`` deep.

    Raises :class:`JSONRefused` (a ``ValueError``) with a message for the
    sender, and nothing else: never ``RecursionError``, nor the bare
    ``ValueError`` of an over-long integer.
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
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except JSONRefused:
        raise
    except json.JSONDecodeError as exc:
        raise JSONRefused("syntax", f"not valid JSON: {exc}") from None
    except ValueError as exc:  # any other conversion the parser could not make
        raise JSONRefused("syntax", f"not acceptable JSON: {exc}") from None
    except RecursionError:  # not expected within the depth limit: refused all the same
        raise JSONRefused("too_deep", "JSON nested too deeply to parse") from None
    except MemoryError:
        raise JSONRefused("too_large", "JSON too large to parse") from None
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
