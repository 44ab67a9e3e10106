"""A finished game's stored public record: equal to a fresh replay, public only, and optional.

The record (``games.records.stored``) replaces the replay on every view of a
finished game, so it must say exactly what the replay said: per ply who moved,
the action, its description and the public events, for whole seeded games of
all four engines; and the pages must answer the same with it and without it.
It holds no view of any seat. Storing it can never break a finish; a missing
one is built on first view or by ``manage.py build_game_records``.
"""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engines
from games.models import Game, GameCheckpoint, GameRecord, Move
from games.records import live as live_record
from games.records import stored as records
from games.records.builder import CHECKPOINT_EVERY, checkpoint_json
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db

PLAYERS = {"manila": 3, "batavia": 4, "cargo_noir": 3, "grog_island": 4}
SECRET_KEYS = {"private", "hidden", "you"}


def people(n: int) -> list:
    return [CompetitorFactory(kind="person", name=f"P{i}") for i in range(n)]


def fresh_replay(game: Game) -> tuple[list[list[Any]], dict[int, dict]]:
    """Every ply as the record holds it and the checkpoint states, replayed independently."""
    rules = engines.get(game.engine)
    state = rules.new_game(game.num_players, game.options)
    plies, states = [], {0: checkpoint_json(state)}
    for move in Move.objects.filter(game=game).order_by("ply"):
        seen = len(state.events)
        state.apply(move.seat, move.action)
        plies.append([move.seat, move.action, rules.describe(move.action), state.events[seen:]])
        if (move.ply + 1) % CHECKPOINT_EVERY == 0:
            states[move.ply + 1] = checkpoint_json(state)
    return plies, states


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


def stored_game(slug: str, seed: str) -> Game:
    game = played_game(slug, people(PLAYERS[slug]), seed=seed)
    records.store_after_finish(game.pk)
    return game


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_the_stored_record_equals_a_fresh_replay_and_holds_no_view(slug) -> None:
    game = stored_game(slug, f"record-{slug}")
    plies, states = fresh_replay(game)
    record = GameRecord.objects.get(game=game)
    assert record.rules_version == engines.get(slug).version
    assert record.replayable == game.next_ply == len(plies)
    # The very JSON a fresh replay gives, keys in the same order (sentences follow it).
    assert record.plies == json.dumps(plies, separators=(",", ":"))
    # Only what a spectator is told: the events the engine publishes, no view, no secret part.
    assert not keys_anywhere(json.loads(record.plies)) & SECRET_KEYS
    stored = GameCheckpoint.objects.filter(game=game).values_list("ply", "state")
    assert dict(stored) == {p: json.dumps(s, separators=(",", ":")) for p, s in states.items()}


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_pages_answer_the_same_with_and_without_the_stored_record(client, slug, monkeypatch):
    game = stored_game(slug, f"same-{slug}")
    last = (game.next_ply // 100) * 100
    urls = [f"/games/{game.pk}/", f"/api/v1/games/{game.pk}/"] + [
        f"/games/{game.pk}/boards.json?seat={seat}&start={start}"
        for seat in ("spectator", "0", "1")
        for start in (0, min(100, last), last)
    ]
    with_record = [client.get(url).content for url in urls]
    GameRecord.objects.filter(game=game).delete()
    GameCheckpoint.objects.filter(game=game).delete()
    monkeypatch.setattr(records, "store", lambda *args: None)  # every request replays
    assert [client.get(url).content for url in urls] == with_record
    assert not GameRecord.objects.filter(game=game).exists()


def test_the_page_and_boards_json_cost_the_same_queries_for_a_short_and_a_long_game(client):
    short = stored_game("manila", "short")
    long = stored_game("grog_island", "long")
    assert long.next_ply > 4 * short.next_ply
    counts: dict[str, list[int]] = {}
    for game in (short, long):
        last = (game.next_ply // 100) * 100
        for name, url in [
            ("page", f"/games/{game.pk}/"),
            ("first", f"/games/{game.pk}/boards.json?start=0"),
            ("last", f"/games/{game.pk}/boards.json?start={last}&seat=1"),
        ]:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.setdefault(name, []).append(len(queries))
    assert all(short == long for short, long in counts.values()), counts


def test_an_open_duplicate_sets_stored_record_shows_no_action(client) -> None:
    event = Tournament.objects.create(name="Duplicate", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    players = people(3)
    finished = played_game("manila", players, seed="dup-record")
    running = played_game("manila", players[1:] + players[:1], seed="dup-record", plies=12)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    records.store_after_finish(finished.pk)
    assert GameRecord.objects.filter(game=finished).exists()
    rules = engines.get("manila")
    # The deals name the shares dealt face down: the secret of the set's other games.
    chance = Move.objects.filter(game=finished, seat=-1)
    described = {rules.describe(m.action) for m in chance} - {""}
    described = {text for text in described if text.startswith("Deal")}
    assert described
    page = client.get(f"/games/{finished.pk}/").content.decode()
    api = client.get(f"/api/v1/games/{finished.pk}/").json()
    assert all(m["action"] is None and m["description"] is None for m in api["moves"])
    assert api["seed"] is None and "dup-record" not in page
    assert 'class="what"' not in page and not any(text in page for text in described)
    assert client.get(f"/games/{finished.pk}/boards.json?seat=0").status_code == 403


def test_a_missing_record_is_built_on_first_view_and_stored(client) -> None:
    game = played_game("cargo_noir", people(3), seed="lazy")
    assert not GameRecord.objects.filter(game=game).exists()
    assert client.get(f"/games/{game.pk}/").status_code == 200
    stored = GameRecord.objects.get(game=game).plies
    assert json.loads(stored) == json.loads(json.dumps(fresh_replay(game)[0]))
    assert GameCheckpoint.objects.filter(game=game).count() == game.next_ply // 100 + 1
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/games/{game.pk}/")
    assert not any("INSERT" in q["sql"] or "DELETE" in q["sql"] for q in queries), "stored once"


def test_a_page_that_cannot_store_the_record_still_answers(client, monkeypatch) -> None:
    from django.db import DatabaseError

    def fail(*args):
        raise DatabaseError("disk full")

    game = played_game("manila", people(3), seed="cannot-store")
    monkeypatch.setattr(records, "store", fail)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.get(f"/games/{game.pk}/boards.json?start=100").status_code == 200
    assert not GameRecord.objects.filter(game=game).exists()


def test_a_record_of_other_rules_is_not_used_but_rebuilt(client) -> None:
    game = stored_game("manila", "stale")
    GameRecord.objects.filter(game=game).update(rules_version="0-old", plies="[]")
    assert records.stored(game) is None and records.checkpoint(game, 150) is None
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('<li class="ply') == game.next_ply
    assert GameRecord.objects.get(game=game).rules_version == engines.get("manila").version


def test_a_log_older_rules_cannot_replay_keeps_its_plies_without_events(client) -> None:
    game = played_game("manila", people(3), seed="legacy-record")
    bad = Move.objects.get(game=game, ply=30)
    bad.action = {"type": "no-such-action"}
    bad.save()
    Game.objects.filter(pk=game.pk).update(engine_version="0-old")
    game.refresh_from_db()
    records.store_after_finish(game.pk)
    record = GameRecord.objects.get(game=game)
    plies = json.loads(record.plies)
    assert record.replayable == 30 and len(plies) == game.next_ply
    assert all(events == [] for _, _, _, events in plies[30:])
    assert any(events for _, _, _, events in plies[:30])
    assert sorted(GameCheckpoint.objects.filter(game=game).values_list("ply", flat=True)) == [0]
    body = client.get(f"/games/{game.pk}/boards.json?start=0").json()
    assert body["total"] == 31 and [p["position"] for p in body["positions"]] == list(range(31))
    assert client.get(f"/games/{game.pk}/boards.json?start=31").status_code == 400
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('<li class="ply') == game.next_ply and "version 0-old" in page


def test_the_command_fills_missing_and_stale_records_once(capsys) -> None:
    games = [played_game("manila", people(3), seed=f"bulk-{i}") for i in range(3)]
    running = played_game("manila", people(3), seed="bulk-running", plies=20)
    records.store_after_finish(games[0].pk)
    GameRecord.objects.filter(game=games[0]).update(rules_version="0-old")
    out = StringIO()
    call_command("build_game_records", "--every", "1", stdout=out)
    text = out.getvalue()
    assert "3 finished game(s) without a current record" in text
    assert "3/3 games done" in text and "stored 3 record(s); 0 failed" in text
    assert set(GameRecord.objects.values_list("game_id", flat=True)) == {g.pk for g in games}
    assert not GameRecord.objects.filter(game=running).exists()
    out = StringIO()
    call_command("build_game_records", stdout=out)
    assert "0 finished game(s) without a current record" in out.getvalue()


def test_a_running_game_reads_only_the_moves_logged_since_its_last_view(client) -> None:
    game = played_game("grog_island", people(4), seed="live", plies=300)
    Move.objects.filter(game=game, ply__gte=250).delete()  # the game as it stood at ply 250
    Game.objects.filter(pk=game.pk).update(next_ply=250)
    live_record.forget(game)
    first = client.get(f"/games/{game.pk}/").content
    rules = engines.get("grog_island")
    state = rules.new_game(4)
    for move in Move.objects.filter(game=game).order_by("ply"):
        state.apply(move.seat, move.action)
    # Play on: 10 more moves logged, the next view reads only those.
    from engines import CHANCE, Dealer

    dealer = Dealer(game.seed)
    for ply in range(250, 260):
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else state.legal_actions(seat)[0]
        state.apply(seat, action)
        Move.objects.create(game=game, ply=ply, seat=seat, action=action, source="person")
    Game.objects.filter(pk=game.pk).update(next_ply=260)
    with CaptureQueriesContext(connection) as queries:
        later = client.get(f"/games/{game.pk}/").content
    move_reads = [q["sql"] for q in queries if "tournaments_move" in q["sql"]]
    # Besides the record's read of the new moves, one read of the page's defaults (the
    # partial index of faulty moves: a timeout's or fault's mark on the list).
    record_reads = [sql for sql in move_reads if "'default'" not in sql]
    assert len(record_reads) == 1 and "250" in record_reads[0]
    assert len(move_reads) == 2
    assert later.count(b'<li class="ply') == 260 and first.count(b'<li class="ply') == 250
    body = client.get(f"/games/{game.pk}/boards.json?start=200").json()
    assert body["total"] == 261 and body["positions"][-1]["position"] == 260
