"""Auditing finished games against their seeds: the report, the command and the endpoint."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

import engines
from engines import CHANCE
from games.models import Game, Move
from games.records.verification import NotVerifiable, verify_game
from tests.factories import CompetitorFactory
from tests.tournaments.played import played_game

pytestmark = pytest.mark.django_db


def manila_game(**fields) -> Game:
    return played_game("manila", CompetitorFactory.create_batch(3), seed="audit-seed", **fields)


def tamper_first_open_chance_move(game: Game) -> int:
    """Replace the first chance move that had a choice with another outcome; return its ply."""
    state = engines.get(game.engine).new_game(game.num_players, game.options)
    for move in game.moves.order_by("ply"):
        if move.seat == CHANCE:
            others = [a for a, _ in state.chance_outcomes() if a != move.action]
            if others:
                move.action = others[0]
                move.save(update_fields=["action"])
                return move.ply
        state.apply(move.seat, move.action)
    raise AssertionError("no chance move with a choice")


def run_verify(game_id: int) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_game", str(game_id), stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue() + str(exc)
    return 0, out.getvalue()


@pytest.mark.parametrize("slug", ["manila", "batavia", "cargo_noir", "grog_island"])
def test_an_honest_game_verifies(slug) -> None:
    n = max(3, engines.get(slug).min_players)
    game = played_game(slug, CompetitorFactory.create_batch(n), seed=f"{slug}-honest")
    report = verify_game(game)
    assert report.ok, report.problems
    assert report.plies == game.next_ply
    chance = Move.objects.filter(game=game, seat=CHANCE).count()
    assert report.chance_plies == chance > 0


def test_a_tampered_chance_move_is_reported_at_its_ply() -> None:
    game = manila_game()
    ply = tamper_first_open_chance_move(game)
    report = verify_game(game)
    assert not report.ok
    first = report.problems[0]
    assert (first.kind, first.ply) == ("chance_outcome", ply)
    assert "the seed gives" in first.detail
    assert all(p.kind != "seed_commitment" for p in report.problems)


def test_a_tampered_seed_fails_its_commitment_and_the_chance_outcomes() -> None:
    game = manila_game()
    Game.objects.filter(pk=game.pk).update(seed="another-seed")
    game.refresh_from_db()
    report = verify_game(game)
    kinds = [p.kind for p in report.problems]
    assert kinds[0] == "seed_commitment"
    assert "chance_outcome" in kinds


def test_a_seed_swapped_with_its_commitment_still_fails_on_the_dice() -> None:
    game = manila_game()
    Game.objects.filter(pk=game.pk).update(
        seed="forged", seed_commitment=engines.seed_commitment("forged")
    )
    game.refresh_from_db()
    kinds = {p.kind for p in verify_game(game).problems}
    assert "chance_outcome" in kinds and "seed_commitment" not in kinds


def test_a_changed_outcome_is_reported() -> None:
    game = manila_game()
    outcome = game.outcome
    outcome.scores = [s + 1 for s in outcome.scores]
    outcome.save()
    game.refresh_from_db()
    problems = verify_game(game).problems
    assert [p.kind for p in problems] == ["outcome"]
    assert "recorded scores" in problems[0].detail


def test_a_game_played_under_older_rules_names_the_version_mismatch() -> None:
    game = manila_game()
    game.engine_version = "1"
    game.save(update_fields=["engine_version"])
    report = verify_game(game)
    assert not report.ok
    assert report.problems[0].kind == "engine_version"
    assert "manila rules version 1" in report.problems[0].detail
    assert f"this server has version {engines.get('manila').version}" in report.problems[0].detail


def test_a_missing_ply_is_a_gap() -> None:
    game = manila_game()
    Move.objects.filter(game=game, ply=10).delete()
    problems = verify_game(game).problems
    assert (problems[0].kind, problems[0].ply) == ("gap", 11)


def test_an_unfinished_game_cannot_be_verified() -> None:
    game = manila_game(plies=20)
    with pytest.raises(NotVerifiable, match="running"):
        verify_game(game)


# ------------------------------------------------------------------ command
def test_command_confirms_an_honest_game_with_exit_status_0() -> None:
    game = manila_game()
    status, output = run_verify(game.pk)
    assert status == 0
    assert f"game {game.pk} (manila): {game.next_ply} plies" in output
    assert "seed:       audit-seed" in output
    assert engines.seed_commitment("audit-seed") in output
    assert output.strip().splitlines()[-1].startswith("OK:")


def test_command_lists_each_mismatch_with_exit_status_1() -> None:
    game = manila_game()
    ply = tamper_first_open_chance_move(game)
    status, output = run_verify(game.pk)
    assert status == 1
    assert "MISMATCH" in output
    assert f"  - ply {ply}: chance_outcome: recorded" in output
    assert f"game {game.pk} does not verify" in output


def test_command_exit_status_2_when_there_is_nothing_to_verify() -> None:
    assert run_verify(999_999) == (2, "there is no game 999999")
    running = manila_game(plies=5)
    status, output = run_verify(running.pk)
    assert status == 2 and "only a finished game reveals its seed" in output


# ------------------------------------------------------------------ endpoint
def test_endpoint_reports_ok_for_anyone() -> None:
    game = manila_game()
    answer = APIClient().get(f"/api/v1/games/{game.pk}/verify/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is True and body["problems"] == []
    assert body["seed"] == "audit-seed" and body["plies"] == game.next_ply


def test_endpoint_reports_a_tampered_move_and_a_tampered_seed() -> None:
    game = manila_game()
    ply = tamper_first_open_chance_move(game)
    body = APIClient().get(f"/api/v1/games/{game.pk}/verify/").json()
    assert body["ok"] is False
    assert body["problems"][0]["kind"] == "chance_outcome" and body["problems"][0]["ply"] == ply
    Game.objects.filter(pk=game.pk).update(seed="not-the-seed")
    body = APIClient().get(f"/api/v1/games/{game.pk}/verify/").json()
    assert body["problems"][0] == {
        "kind": "seed_commitment",
        "ply": None,
        "detail": body["problems"][0]["detail"],
    }
    assert game.seed_commitment in body["problems"][0]["detail"]


def test_endpoint_refuses_unfinished_and_missing_games() -> None:
    running = manila_game(plies=5)
    answer = APIClient().get(f"/api/v1/games/{running.pk}/verify/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_finished"
    assert "audit-seed" not in answer.content.decode()
    missing = APIClient().get("/api/v1/games/999999/verify/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
