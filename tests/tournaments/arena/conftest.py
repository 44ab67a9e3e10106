"""Fixtures for arena tests: a league whose arena is on, and bots joined to it."""

from __future__ import annotations

import pytest

from tests.factories import BotFactory, LeagueFactory
from tournaments.events import arena


@pytest.fixture
def league(db):
    return LeagueFactory(
        arena_enabled=True,
        arena_table_size=4,
        arena_min_table_size=3,
        arena_move_time_ms=3000,
        arena_time_bank_ms=1000,
        pool="bots",
    )


@pytest.fixture
def join_bots(league):
    """``join_bots(n, **bot_fields)``: n bots of distinct owners, each entered by its owner."""

    def make(count: int, *, into=None, share: bool = False, **fields):
        bots = BotFactory.create_batch(count, **fields)
        for bot in bots:
            arena.join(into or league, bot.competitor, by=bot.owner,
                       share_tables_with_own_bots=share)  # fmt: skip
        return bots

    return make
