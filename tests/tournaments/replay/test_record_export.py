"""``GET /api/v1/games/{id}/record/``: the full record a bot author replays with ``engines.replay``.

Each engine's game is played through the referee (people's random moves
submitted, chance drawn by the referee from the seed, one seat resigning
midway so a house bot plays it and it forfeits), and the referee's own final
state is caught as it finishes the game. The exported record must rebuild
exactly that state, and its outcome's ranks with forfeits moved last
(``games.selectors.ranks.final_ranks``, as the referee does) are the record's ranks.
Before the record is public the export is a 409 that names no secret.
"""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.test import APIClient

import engines
from engines import CHANCE
from games.models import Game, Move
from games.referee import statecache
from games.referee import steps as referee
from games.selectors.ranks import final_ranks
from games.services import create_game
from tests.factories import CompetitorFactory
from tests.tournaments.played import play_as_people, played_game
from tournaments.models import Round, Table, Tournament
from web.sockets import person_moves

ENGINES = ["manila", "batavia", "cargo_noir", "grog_island"]


@pytest.fixture
def referee_states(monkeypatch) -> dict[int, engines.State]:
    """The state the referee finishes each game with (loaded, or handed over), by game id."""
    caught: dict[int, engines.State] = {}
    original = statecache.load_state

    def spy(game: Game) -> engines.State:
        state = original(game)
        if state.is_over:
            caught[game.pk] = state.clone()
        return state

    def spy_finish(game_id: int, state: engines.State | None = None) -> bool:
        if state is not None:  # the claim of the last move hands the referee's state over
            caught[game_id] = state.clone()
        return original_finish(game_id, state)

    original_finish = referee.finish
    monkeypatch.setattr(statecache, "load_state", spy)
    monkeypatch.setattr(referee, "finish", spy_finish)
    return caught


def play_with_a_resignation(game: Game, rng: random.Random, seat: int, after: int) -> None:
    """People play ``after`` plies, then ``seat`` resigns and the rest is played out."""
    from games.referee import steps as referee
    from games.referee.decisions import Decision

    while game.next_ply < after:
        game.refresh_from_db()
        state = statecache.load_state(game)
        if state.is_over or game.status != Game.Status.RUNNING:
            break
        mover = state.to_move[0]
        action = rng.choice(state.legal_actions(mover))
        referee.submit(game.pk, game.next_ply, mover, Decision(action))
    person_moves.resign(game.pk, person_moves.Viewer(game.pk, None, (seat,)))
    play_as_people(game, rng, absent=seat)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
@pytest.mark.parametrize("slug", ENGINES)
def test_the_record_rebuilds_the_referees_final_state(slug, referee_states) -> None:
    players = CompetitorFactory.create_batch(3, kind="person")
    game = create_game(slug, players, seed=f"export-{slug}", rated=False)
    play_with_a_resignation(game, random.Random(7), seat=1, after=12)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    answer = APIClient().get(f"/api/v1/games/{game.pk}/record/")
    assert answer.status_code == 200
    record = json.loads(answer.content)  # as a client reads it: plain JSON, nothing else

    state = engines.replay(
        record["engine"],
        record["num_players"],
        record["options"],
        [(move["seat"], move["action"]) for move in record["moves"]],
    )
    assert state.is_over
    assert state.to_json() == referee_states[game.pk].to_json()
    forfeited = [seat["forfeited"] for seat in record["seats"]]
    assert forfeited == [False, True, False], "the resigned seat forfeited"
    result = state.outcome()
    assert final_ranks(result["ranks"], forfeited) == record["outcome"]["ranks"]
    assert result["scores"] == record["outcome"]["scores"]
    assert record["outcome"]["ranks"][1] == 3, "the forfeit ranks last"

    assert [m["ply"] for m in record["moves"]] == list(range(game.next_ply))
    sources = {m["source"] for m in record["moves"] if m["seat"] == 1}
    assert "house" in sources, "the house bot played the resigned seat"
    assert all(m["source"] == "chance" for m in record["moves"] if m["seat"] == CHANCE)
    assert record["seed"] == f"export-{slug}"
    assert record["seed_commitment"] == engines.seed_commitment(record["seed"])
    assert record["engine_version"] == engines.get(slug).version
    assert [s["competitor_id"] for s in record["seats"]] == [p.pk for p in players]
    assert record["seats"][1]["substituted"] is True


@pytest.mark.django_db
def test_the_record_has_no_private_part_of_a_move() -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="no-excerpts")
    Move.objects.filter(game=game, ply=3).update(
        latency_ms=1234, fault_kind="timeout", fault_detail="HOST-DETAIL",
        request_excerpt="REQUEST-EXCERPT", reply_excerpt="REPLY-EXCERPT",
    )  # fmt: skip
    answer = APIClient().get(f"/api/v1/games/{game.pk}/record/")
    assert answer.status_code == 200
    body = answer.content.decode()
    for secret in ("HOST-DETAIL", "REQUEST-EXCERPT", "REPLY-EXCERPT", "1234", "latency"):
        assert secret not in body
    assert set(answer.json()["moves"][0]) == {"ply", "seat", "action", "source", "default"}


@pytest.mark.django_db
def test_a_running_game_has_no_record_yet() -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="run-secret", plies=9)
    answer = APIClient().get(f"/api/v1/games/{game.pk}/record/")
    assert answer.status_code == 409
    body = answer.json()
    assert body == {"detail": body["detail"], "code": "not_finished"}
    assert "run-secret" not in answer.content.decode()
    assert "action" not in answer.content.decode()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    aborted = APIClient().get(f"/api/v1/games/{game.pk}/record/")
    assert aborted.status_code == 409 and "aborted" in aborted.json()["detail"]
    assert "run-secret" not in aborted.content.decode()


@pytest.mark.django_db
def test_an_open_duplicate_set_has_no_record_yet() -> None:
    event = Tournament.objects.create(name="Duplicate", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    players = CompetitorFactory.create_batch(3)
    finished = played_game("manila", players, seed="dup-export")
    running = played_game("manila", players[1:] + players[:1], seed="dup-export", plies=10)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    answer = APIClient().get(f"/api/v1/games/{finished.pk}/record/")
    assert answer.status_code == 409 and answer.json()["code"] == "not_finished"
    assert "duplicate set" in answer.json()["detail"]
    assert "dup-export" not in answer.content.decode()
    Game.objects.filter(pk=running.pk).update(status=Game.Status.ABORTED)
    assert APIClient().get(f"/api/v1/games/{finished.pk}/record/").status_code == 200


@pytest.mark.django_db
def test_a_missing_game_is_a_404_like_the_rest_of_the_game_api() -> None:
    answer = APIClient().get("/api/v1/games/999999/record/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
