"""Small English helpers for the sentences engines write for people.

Engines describe actions and public events for game pages (``describe`` and
``describe_event``). These helpers keep the grammar in one place: the right
article, a count with its noun in the right number, a list joined with
"and". They know nothing of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Sentences = Mapping[str, Callable[[Mapping[str, Any]], str]]
"""An engine's sentence writers, by action or event ``type``."""

_MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)
"""What a writer raises on an action or event missing a field it reads."""

_YOO = ("uni", "ura", "use", "usu", "uti", "eu", "one")
"""Vowel-initial words said with a consonant sound ("a uranium mine", "a one")."""


def article(word: str) -> str:
    """``word`` with "a" or "an" in front, by its first sound."""
    lower = word.lower()
    vowel = lower[:1] in "aeiou" and not lower.startswith(_YOO)
    return f"{'an' if vowel else 'a'} {word}"


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``"1 coin"``, ``"3 coins"``, ``"0 coins"``; ``plural`` for irregular nouns."""
    noun = singular if number == 1 else (plural or f"{singular}s")
    return f"{number} {noun}"


def join(items: Iterable[str], last: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` (empty: ``"nothing"``)."""
    words = list(items)
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def capitalize(sentence: str) -> str:
    """The first letter in upper case, the rest untouched (unlike ``str.capitalize``)."""
    return sentence[:1].upper() + sentence[1:]


def action_sentence(writers: Sentences, action: Mapping[str, Any]) -> str:
    """``action`` as its engine's short imperative sentence; a plain one if it cannot be read."""
    write = writers.get(str(action.get("type")))
    if write is None:
        return "An unknown action"
    try:
        return write(action)
    except _MALFORMED:
        return "A malformed action"


def event_sentence(writers: Sentences, event: Mapping[str, Any]) -> str:
    """``event`` as its engine's sentence; a plain one if it cannot be read."""
    write = writers.get(str(event.get("type")))
    try:
        return capitalize(write(event)) if write else _UNDESCRIBED
    except _MALFORMED:
        return _UNDESCRIBED


_UNDESCRIBED = "Something happened that this page cannot describe."


def victory_points_verdict(event: Mapping[str, Any]) -> str:
    """A ``game_over`` event with ``scores`` in victory points and ``ranks`` (1 = first)."""
    scores = event.get("scores") or []
    ranks = event.get("ranks") or []
    points = join(f"seat {s} has {count(int(vp), 'victory point')}" for s, vp in enumerate(scores))
    winners = [f"seat {s}" for s, rank in enumerate(ranks) if rank == 1]
    verdict = (
        f"{winners[0]} wins"
        if len(winners) == 1
        else f"{join(winners)} share the first place"
        if winners
        else "there is no winner"
    )
    return f"The game is over: {points}; {verdict}."


def generic_event_text(event: Mapping[str, Any]) -> str:
    """An event as ``kind: key value, ...`` -- the fallback for engines without sentences."""
    details = ", ".join(
        f"{key} {_value_text(value)}" for key, value in event.items() if key != "type"
    )
    kind = str(event.get("type", "event")).replace("_", " ")
    return f"{kind}: {details}" if details else kind


def _value_text(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_value_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)
