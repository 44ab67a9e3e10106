"""``manage.py play``: local games between example bots and endpoints through the referee."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from harbormaster_bot import serve_in_background
from harbormaster_bot.examples.random_bot import RandomBot

from botapi import local_games as play
from botapi.models import Bot
from games.models import Game, Move

pytestmark = pytest.mark.django_db(transaction=True)


def run(*args: str, **options: object) -> str:
    out = io.StringIO()
    call_command("play", *args, stdout=out, **options)
    return out.getvalue()


def test_example_bots_play_unrated_games_with_rotating_seats(settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the command forces eager play itself
    settings.BOT_ENDPOINT_ALLOW = None  # and allows loopback itself
    output = run("manila", "greedy", "random", "random", seed="s", games=2, time_ms=3000)
    games = list(Game.objects.order_by("id"))
    assert [g.seed for g in games] == ["s-1", "s-2"]
    assert all(g.status == Game.Status.FINISHED and not g.rated for g in games)
    assert all(g.move_time_ms == 3000 for g in games)
    owner = get_user_model().objects.get(username=play.LOCAL_USER)
    assert not owner.has_usable_password()
    names = sorted(Bot.objects.filter(owner=owner).values_list("name", flat=True))
    assert names == ["greedy", "random", "random-2"]
    first = [s.competitor.bot.name for s in games[0].seats.order_by("position")]
    second = [s.competitor.bot.name for s in games[1].seats.order_by("position")]
    assert first == ["greedy", "random", "random-2"] and second == ["random", "random-2", "greedy"]
    for game in games:
        assert f"game {game.pk}  seed {game.seed}" in output
        moves = list(game.moves.order_by("ply"))
        assert [m.ply for m in moves] == list(range(len(moves)))
        assert {m.source for m in moves} == {"bot", "chance"}
        assert not any(m.fault_kind for m in moves)
        for seat in game.seats.all():
            assert f"seat {seat.position}  {seat.competitor.bot.name} " in output
    table = output.split("faults", 1)[1]
    for name in names:
        assert any(line.startswith(name) and line.rstrip().endswith("none")
                   for line in table.splitlines()), name  # fmt: skip
    again = run("manila", "greedy", "random", "random", seed="t")
    assert Bot.objects.filter(owner=owner).count() == 3, "bots are reused, not duplicated"
    assert "1 game(s) of manila" in again


def test_ranks_and_scores_are_printed_per_seat() -> None:
    output = run("cargo_noir", "greedy", "random", seed="ranks")
    game = Game.objects.get()
    for position, seat in enumerate(game.seats.order_by("position")):
        rank, score = game.outcome.ranks[position], game.outcome.scores[position]
        expected = f"seat {position}  {seat.competitor.bot.name:<24} rank {rank:<3}"
        assert any(line.strip().startswith(expected.strip()) and f"score {score}" in line
                   for line in output.splitlines()), (expected, output)  # fmt: skip


def test_a_url_bot_uses_the_secret_in_its_fragment_or_the_option() -> None:
    with serve_in_background(RandomBot(seed=5), secret="frag-secret", name="frag") as bot:
        run("manila", f"{bot.url}#frag-secret", "random", "greedy", seed="u")
        run("manila", bot.url, "random", "greedy", seed="v", secret="frag-secret")
    for game in Game.objects.all():
        url_seat = next(s for s in game.seats.all() if s.competitor.bot.name == "frag")
        own = Move.objects.filter(game=game, seat=url_seat.position)
        assert own.exists() and not own.exclude(source="bot").exists()


def test_an_unreachable_bot_still_plays_its_game_by_faults_and_forfeit() -> None:
    output = run("manila", "greedy", "http://127.0.0.1:9/#s", "random", time_ms=500)
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED
    seat = game.seats.get(position=1)
    assert seat.forfeited and seat.fault_count == 3
    assert "did not answer a ping" in output
    assert "connection_error 3" in output and "forfeited 1 game(s)" in output
    assert game.outcome.ranks[1] == 3


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        (("chess", "greedy", "random"), {}, "unknown engine 'chess'"),
        (("manila", "greedy"), {}, "3-5 players"),
        (("manila", "greedy", "clever", "random"), {}, "unknown bot 'clever'"),
        (("manila", "greedy", "http://127.0.0.1:9/", "random"), {}, "no signing secret"),
        (("manila", "greedy", "random", "random"), {"games": 0}, "--games"),
    ],
)
def test_bad_input_is_a_clear_error(monkeypatch, args, options, message) -> None:
    monkeypatch.delenv("HARBORMASTER_SECRET", raising=False)
    with pytest.raises(CommandError, match=message):
        run(*args, **options)
    assert not Game.objects.exists()


def test_percentiles_are_nearest_rank() -> None:
    stats = play.BotStats(name="b", latencies_ms=list(range(1, 101)))
    assert [stats.percentile(p) for p in (50, 90, 99, 100)] == [50, 90, 99, 100]
    assert play.BotStats(name="none").percentile(50) is None
    assert play.BotStats(name="one", latencies_ms=[7]).percentile(99) == 7


def test_a_url_bot_is_listed_under_the_name_it_answers_to_a_ping() -> None:
    with serve_in_background(RandomBot(seed=1), secret="s", name="My Bot") as bot:
        output = run("manila", f"{bot.url}#s", "random", "greedy", seed="named")
    url_bot = Bot.objects.get(endpoint_url=bot.url)
    assert url_bot.name == "my-bot"
    assert url_bot.competitor.name == f"{play.LOCAL_USER}/my-bot"
    assert "url-127-0-0-1" not in output
    assert any(line.split()[2:3] == ["my-bot"] for line in output.splitlines() if "seat" in line)
    assert url_bot.last_ping_ok and "answered as My Bot" in url_bot.last_ping_detail


def test_a_bot_answering_an_example_bots_name_gets_a_distinct_one() -> None:
    with serve_in_background(RandomBot(seed=1), secret="s", name="random") as bot:
        run("manila", f"{bot.url}#s", "random", "greedy", seed="twin")
    seats = Game.objects.get().seats.order_by("position")
    assert [s.competitor.bot.name for s in seats] == ["random-2", "random", "greedy"]
    assert seats[0].competitor.bot.endpoint_url == bot.url, "the example keeps its name"


def test_a_silent_url_bot_is_named_after_its_address() -> None:
    run("manila", "greedy", "http://127.0.0.1:9/#s", "random", time_ms=300)
    assert Bot.objects.filter(name="url-127-0-0-1-9").exists()


def test_local_games_are_unlisted_and_their_bots_suspended_after_the_run(client) -> None:
    output = run("cargo_noir", "greedy", "random", seed="quiet")
    game = Game.objects.get()
    assert not game.listed and not game.rated
    home = client.get("/").content.decode()
    assert f"/games/{game.pk}/" not in home and "local-play/" not in home
    assert client.get("/api/v1/games/").json()["results"] == []
    board = client.get("/leaderboards/cargo_noir/").content.decode()
    assert f"/games/{game.pk}/" not in board
    assert client.get(f"/games/{game.pk}/").status_code == 200, "its page stays reachable"
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 200
    assert f"game {game.pk}" in output
    for bot in Bot.objects.filter(owner__username=play.LOCAL_USER):
        assert bot.status == Bot.Status.SUSPENDED
        assert "manage.py play" in bot.status_reason
    run("cargo_noir", "greedy", "random", seed="again")  # the next run reactivates them
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
