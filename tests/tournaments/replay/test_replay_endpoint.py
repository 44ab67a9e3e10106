"""``/games/<id>/boards.json``: the game page's board replay, and who may see what.

A public record (finished, its duplicate set over) gives any seat's view with the
actions offered and taken and a bot's latency and fault; a running game, or one of
a still-open duplicate set, gives only the spectator's models up to the current
ply, equal to ``board_model(state, None)`` and unchanged when its secrets change.
These requests are anonymous; a seat's holder replaying their own seat during the
game is in ``test_replay_holders.py``.
"""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engines
from engines import CHANCE
from games.models import Game, Move
from games.records.replay import MAX_PAGE
from games.selectors import spectator
from games.selectors.boards import board_model, legal_entries
from tests.engines.helpers import perturb_secrets
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db

PLAYERS = {"manila": 3, "batavia": 3, "cargo_noir": 3, "grog_island": 3}


def url(game: Game, **params: object) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/games/{game.pk}/boards.json" + (f"?{query}" if query else "")


def people(n: int) -> list:
    return [CompetitorFactory(kind="person", name=f"P{i}") for i in range(n)]


def replayed(game: Game, plies: int) -> engines.State:
    """The state after the first ``plies`` logged moves, rebuilt independently."""
    state = engines.get(game.engine).new_game(game.num_players, game.options)
    for seat, action in (
        Move.objects.filter(game=game).order_by("ply").values_list("seat", "action")[:plies]
    ):
        state.apply(seat, action)
    return state


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_a_finished_games_models_match_the_replay_for_every_seat(client, slug) -> None:
    game = played_game(slug, people(PLAYERS[slug]), seed=f"replay-{slug}")
    names = {i: f"P{i}" for i in range(game.num_players)}
    n = game.next_ply
    for seat in ["spectator", *range(game.num_players)]:
        seat_arg = None if seat == "spectator" else seat
        for position in (0, n // 2, n):
            body = client.get(url(game, seat=seat, start=position, count=1)).json()
            assert body["total"] == n + 1 and body["public"] is True
            [entry] = body["positions"]
            state = replayed(game, position)
            expected = json.loads(json.dumps(board_model(state, seat_arg, names)))
            if position == n:  # the end: the final panel's ranking, the record's
                expected["ranking"] = json.loads(json.dumps(spectator.ranking(game)))
            assert entry["position"] == position
            assert entry["model"] == expected
            if position == n:
                assert entry["move"] is None
                continue
            move = Move.objects.get(game=game, ply=position)
            assert entry["move"]["description"] == state.engine.describe(move.action)
            if move.seat != CHANCE:
                offered = [e["text"] for e in legal_entries(state, move.seat)]
                assert entry["move"]["offered"] == offered
                assert entry["move"]["description"] in offered


def test_pages_cover_the_game_and_end_with_the_final_position(client) -> None:
    game = played_game("manila", people(3), seed="pages")
    seen = []
    start = 0
    while True:
        body = client.get(url(game, start=start)).json()
        seen += [p["position"] for p in body["positions"]]
        assert len(body["positions"]) <= MAX_PAGE
        start += MAX_PAGE
        if start >= body["total"]:
            break
    assert seen == list(range(game.next_ply + 1))


def test_a_bots_move_carries_its_latency_and_fault(client) -> None:
    game = played_game("manila", people(3), seed="bot-latency")
    bot = game.seats.get(position=1).competitor
    bot.kind = "bot"
    bot.save()
    move = Move.objects.filter(game=game, seat=1).order_by("ply").first()
    move.latency_ms, move.fault_kind, move.fault_detail = 321, "timeout", "secret-detail"
    move.source = Move.Source.DEFAULT
    move.save()
    response = client.get(url(game, start=move.ply, count=1))
    block = response.json()["positions"][0]["move"]
    assert block["latencyMs"] == 321 and block["fault"] == "timeout"
    assert b"secret-detail" not in response.content
    person_move = Move.objects.filter(game=game, seat=0).first()
    block = client.get(url(game, start=person_move.ply, count=1)).json()["positions"][0]["move"]
    assert "latencyMs" not in block


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_a_running_game_gives_only_the_spectators_models_up_to_now(client, slug) -> None:
    game = played_game(slug, people(PLAYERS[slug]), seed=f"running-{slug}", plies=60)
    assert game.status == Game.Status.RUNNING
    names = {i: f"P{i}" for i in range(game.num_players)}
    response = client.get(url(game, start=0, count=MAX_PAGE))
    body = response.json()
    assert body["public"] is False and body["total"] == 61
    assert [p["position"] for p in body["positions"]] == list(range(61))
    assert game.seed.encode() not in response.content
    rng = random.Random(7)
    for entry in body["positions"][::7] + body["positions"][-1:]:
        state = replayed(game, entry["position"])
        assert entry["model"] == json.loads(json.dumps(board_model(state, None, names)))
        # The leak test's idea: other secrets, same answer.
        other = perturb_secrets(state, None, rng)
        assert entry["model"] == json.loads(json.dumps(board_model(other, None, names)))
        move = entry["move"]
        assert move is None or set(move) == {"ply", "seat", "chance", "default"}


@pytest.mark.parametrize("seat", ["0", "2"])
def test_a_seats_view_of_a_running_game_is_refused(client, seat) -> None:
    game = played_game("manila", people(3), seed="refused", plies=20)
    response = client.get(url(game, seat=seat))
    assert response.status_code == 403
    assert "public" in response.json()["error"]


def test_an_open_duplicate_sets_finished_game_stays_private(client) -> None:
    event = Tournament.objects.create(name="Duplicate", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    players = people(3)
    finished = played_game("manila", players, seed="dup")
    running = played_game("manila", players[1:] + players[:1], seed="dup", plies=12)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    assert client.get(url(finished, seat=0)).status_code == 403
    response = client.get(url(finished, start=0, count=5))
    body = response.json()
    assert body["public"] is False
    assert all(set(p["move"]) == {"ply", "seat", "chance", "default"} for p in body["positions"])
    assert b"dup" not in response.content.replace(b"duplicate", b"")


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"seat": "x"}, "seat must be"),
        ({"seat": "3"}, "between 0 and 2"),
        ({"seat": "-1"}, "between 0 and 2"),
        ({"start": "a"}, "start must be a whole number"),
        ({"start": "99999"}, "start must be between"),
        ({"count": "0"}, "count must be between 1"),
        ({"count": str(MAX_PAGE + 1)}, "count must be between 1"),
    ],
)
def test_bad_parameters_get_a_clear_400(client, params, words) -> None:
    game = played_game("manila", people(3), seed="bad", plies=40)
    game.status = Game.Status.FINISHED
    game.save()
    response = client.get(url(game, **params))
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_an_unknown_game_is_404(client) -> None:
    assert client.get("/games/999999/boards.json").status_code == 404


def test_queries_do_not_grow_with_the_game(client) -> None:
    """Running games, once seen (finished games with their stored record: test_game_records)."""
    short = played_game("manila", people(3), seed="short", plies=10)
    long = played_game("manila", people(3), seed="long", plies=170)
    counts = []
    for game in (short, long):
        client.get(url(game, start=0))  # the in-process record follows the game from now on
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(game, start=(game.next_ply // 100) * 100)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6, counts


def test_a_log_older_rules_cannot_replay_stops_at_the_last_good_position(client) -> None:
    game = played_game("manila", people(3), seed="legacy")
    bad = Move.objects.get(game=game, ply=30)
    bad.action = {"type": "no-such-action"}
    bad.save()
    game.engine_version = "0-old"
    game.save()
    body = client.get(url(game, start=0, count=MAX_PAGE)).json()
    assert body["total"] == 31
    assert [p["position"] for p in body["positions"]] == list(range(31))
    assert client.get(url(game, start=31)).status_code == 400
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b'id="replay-board"' in page.content


def test_the_game_page_offers_seat_views_only_for_a_public_record(client) -> None:
    finished = played_game("manila", people(3), seed="page-finished")
    running = played_game("manila", people(3), seed="page-running", plies=15)
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert 'id="replay-seat"' in page and 'data-public="1"' in page
    assert f'data-positions="{finished.next_ply + 1}"' in page
    assert 'id="replay"' in page  # the text list of plies stays
    page = client.get(f"/games/{running.pk}/").content.decode()
    assert 'id="replay-seat"' not in page and 'data-public="0"' in page
    assert 'data-positions="16"' in page
