"""``demo_setup`` plays real games of every engine between the example bots before serving.

One game per engine (``--games-per-engine 1``) keeps this quick; the bots are
served over loopback HTTP by the test process itself, as by the demo. The
club event is tested in ``tests/tournaments/events/test_demo_event.py``.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

import engines
from botapi.models import Bot
from botapi.selectors.seating import example_bots_username
from games.models import Game
from games.records.verification import verify_game
from harbormaster.demo import EXAMPLE_BOTS, SUSPENDED_REASON, example_bots
from ratings.models import Rating

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _demo_settings(settings) -> None:
    settings.DEBUG = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]


def test_demo_plays_a_finished_game_of_every_engine_and_prints_progress() -> None:
    out = StringIO()
    call_command("demo_setup", games_per_engine=1, event_rounds=0, stdout=out)
    output = out.getvalue()
    games = list(Game.objects.filter(league=None).order_by("id"))
    slugs = sorted(engine.slug for engine in engines.all_engines())
    assert sorted(game.engine for game in games) == slugs
    for game in games:
        assert game.status == Game.Status.FINISHED, (game.engine, game.next_ply)
        assert not game.moves.exclude(fault_kind="").exists(), "an example bot faulted"
        assert verify_game(game).ok
        name = engines.get(game.engine).name
        assert f"{name}: playing game 1 of 1 (greedy, random-1, random-2)..." in output
        assert f"{name}: 1/1 finished — game #{game.pk} finished" in output
    assert "Demo games: 4/4 finished." in output
    assert "username: admin" in output
    # the bots are the example account's, and rated on every engine's ladder
    bots = Bot.objects.filter(owner__username=example_bots_username(), anchor="")
    assert sorted(bots.values_list("name", flat=True)) == sorted(EXAMPLE_BOTS)
    greedy = bots.get(name="greedy")
    assert Rating.objects.filter(competitor=greedy.competitor, system="elo").count() == 4
    # their endpoints died with the command: suspended, saying why
    assert set(bots.values_list("status", "status_reason")) == {("suspended", SUSPENDED_REASON)}
    # the home page lists the games with their results
    page = Client().get("/").content.decode()
    for game in games:
        assert f'href="/games/{game.pk}/"' in page
    assert "examples/greedy" in page
    # the house anchors played one game in every engine's arena, and lead its leaderboard marks
    arena_games = list(Game.objects.exclude(league=None).order_by("id"))
    assert sorted(game.engine for game in arena_games) == slugs
    assert "Arena games of the anchors: 4/4 finished." in output
    for game in arena_games:
        assert game.status == Game.Status.FINISHED and verify_game(game).ok
        assert set(game.seats.values_list("competitor__bot__anchor", flat=True)) == {
            "random", "greedy", "search-8", "search-32"
        }  # fmt: skip
        board = Client().get(f"/leaderboards/{game.engine}/").content.decode()
        assert board.count('class="tag anchor"') == 4


def test_example_bots_are_registered_once_and_reactivated_on_each_run() -> None:
    with example_bots() as first:
        assert all(bot.status == "active" for bot in first)
        first_urls = {bot.name: bot.endpoint_url for bot in first}
    with example_bots() as second:
        assert [b.pk for b in second] == [b.pk for b in first]
        assert all(bot.status == "active" for bot in second), "a ping reactivated them"
        assert {bot.name: bot.endpoint_url for bot in second} != first_urls
    assert Bot.objects.count() == len(EXAMPLE_BOTS)
    assert set(Bot.objects.values_list("status", flat=True)) == {"suspended"}


def test_no_games_when_asked_for_none() -> None:
    out = StringIO()
    call_command("demo_setup", games_per_engine=0, event_rounds=0, stdout=out)
    assert Game.objects.count() == 0 and "Playing" not in out.getvalue()
