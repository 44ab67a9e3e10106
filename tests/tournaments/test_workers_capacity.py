"""A bot's limit of games at once, the rule game scheduling applies.

The rule is ``botapi.selectors.capacity``'s.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from botapi.selectors.capacity import (
    BotAtCapacity,
    bots_at_capacity,
    check_capacity,
    unfinished_games,
)
from games.models import Game
from tests.factories import BotFactory, CompetitorFactory, GameFactory, seat_bot

pytestmark = pytest.mark.django_db(transaction=True)


def seated_game(bot, status=Game.Status.RUNNING, positions=(0,)):
    game = GameFactory(status=status)
    for position in positions:
        seat_bot(game, bot, position)
    return game


def test_scheduled_and_running_games_count_finished_and_aborted_do_not() -> None:
    bot = BotFactory(max_concurrent_games=3)
    seated_game(bot, Game.Status.RUNNING)
    seated_game(bot, Game.Status.SCHEDULED)
    seated_game(bot, Game.Status.FINISHED)
    seated_game(bot, Game.Status.ABORTED)
    seated_game(bot, Game.Status.RUNNING, positions=(0, 1, 2))  # self-play: one game
    assert unfinished_games([bot.competitor_id]) == {bot.competitor_id: 3}
    assert bots_at_capacity([bot.competitor]) == [bot]


def test_a_bot_below_its_limit_and_people_may_be_seated() -> None:
    roomy = BotFactory(max_concurrent_games=2)
    seated_game(roomy)
    person = CompetitorFactory(kind="person")
    with transaction.atomic():
        check_capacity([roomy.competitor, person])
    seated_game(roomy)
    with pytest.raises(BotAtCapacity, match=rf"{roomy.name} \(2\)"), transaction.atomic():
        check_capacity([person, roomy.competitor])


@pytest.mark.postgres
def test_two_creators_cannot_both_take_a_bots_last_slot() -> None:
    """check_capacity locks the bot: the second creator sees the first one's game."""
    assert connection.vendor == "postgresql"
    bot = BotFactory(max_concurrent_games=1)
    barrier = threading.Barrier(2)
    results: list[str] = []

    def creator() -> None:
        try:
            barrier.wait()
            with transaction.atomic():
                check_capacity([bot.competitor])
                seated_game(bot)
            results.append("created")
        except BotAtCapacity:
            results.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=creator) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["created", "refused"]
    assert unfinished_games([bot.competitor_id]) == {bot.competitor_id: 1}


def test_create_game_itself_refuses_a_bot_at_capacity_and_writes_nothing(settings) -> None:
    """Every creator (API, demo, tournaments) goes through create_game, so the limit holds."""
    from games.services import create_game

    settings.CELERY_TASK_ALWAYS_EAGER = True
    busy = BotFactory(max_concurrent_games=1, engines=["manila"])
    seated_game(busy)
    people = CompetitorFactory.create_batch(2, kind="person")
    before = Game.objects.count()
    with pytest.raises(BotAtCapacity):
        create_game("manila", [busy.competitor, *people], rated=False)
    assert Game.objects.count() == before

    game = create_game("manila", [busy.competitor, *people], rated=False, enforce_capacity=False)
    assert game.seats.filter(competitor=busy.competitor).exists()
