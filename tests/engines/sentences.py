"""What keeps an engine's text from being a sentence a person reads without a glossary.

Shared by the event-text tests of every engine; each passes its own pattern
for "a count of one before a plural noun", since the nouns are the game's.
"""

from __future__ import annotations

import re

SNAKE = re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b")
BRACES = re.compile(r"[{}\[\]]")
A_BEFORE_VOWEL = re.compile(r"\b[Aa] [AEIOUaeiou]")
PYTHON = re.compile(r"\b(?:None|True|False)\b|(?<!\w)'\w+'")


def sentence_problems(text: str, one_plural: re.Pattern[str]) -> list[str]:
    """The problems found in ``text`` (none for a good sentence)."""
    problems = []
    if not text or not text[0].isupper():
        problems.append("does not start with a capital letter")
    for name, pattern in (
        ("snake_case identifier", SNAKE),
        ("raw braces or brackets", BRACES),
        ("'a' before a vowel", A_BEFORE_VOWEL),
        ("'1' before a plural", one_plural),
        ("Python literal or quote", PYTHON),
    ):
        match = pattern.search(text)
        if match:
            problems.append(f"{name}: {match.group(0)!r}")
    return problems
