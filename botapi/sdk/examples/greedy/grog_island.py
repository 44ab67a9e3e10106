"""Placeholder."""

from __future__ import annotations

import random

from .common import Action, View


def choose(view: View, legal: list[Action], rng: random.Random) -> int:
    return rng.randrange(len(legal))
