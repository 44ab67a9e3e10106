"""Checking a finished game against its seed: anyone can audit the dice and the deals.

A game publishes ``sha256(seed)`` from its creation and the seed once it is
finished. :func:`verify_game` then replays the move log from the start and
confirms, ply by ply, that

* the seed is the one committed to (``engines.seed_commitment``);
* the game was played under the rules version this server has (an engine's
  ``version`` changes when its rules do; an older record is still replayed,
  but the report names the difference);
* the log has no gap, and every move was made by the seat that was to move;
* every chance outcome is exactly the one ``Dealer(seed).choose`` gives at
  that point (so nobody, the server included, picked a convenient card);
* every player action was legal;
* the replay ends the game, with the recorded scores and ranks (forfeited
  seats last, as rated).

It never stops at the first problem when it can go on: a tampered chance move
is reported and the replay continues with the recorded action, so one report
lists everything that does not match. The management command ``verify_game``
and the API endpoint ``games/{id}/verify/`` only print or serialise the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engines
from engines import CHANCE, Dealer, EngineError
from engines.base import same_json
from games.models import Game, Move
from games.selectors import spectator
from games.selectors.ranks import final_ranks


class NotVerifiable(Exception):
    """The game cannot be audited yet: only finished games reveal their seed."""


@dataclass(frozen=True)
class Problem:
    """One thing in the record that does not match; ``ply`` is None for the game as a whole."""

    kind: str
    detail: str
    ply: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ply": self.ply, "detail": self.detail}

    def __str__(self) -> str:
        where = f"ply {self.ply}: " if self.ply is not None else ""
        return f"{where}{self.kind}: {self.detail}"


@dataclass
class VerificationReport:
    """What was checked and what did not match; ``ok`` when nothing."""

    game_id: int
    engine: str
    seed: str
    seed_commitment: str
    plies: int = 0
    chance_plies: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, kind: str, detail: str, ply: int | None = None) -> None:
        self.problems.append(Problem(kind, detail, ply))

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "engine": self.engine,
            "ok": self.ok,
            "seed": self.seed,
            "seed_commitment": self.seed_commitment,
            "plies": self.plies,
            "chance_plies": self.chance_plies,
            "problems": [problem.as_dict() for problem in self.problems],
        }


def verify_game(game: Game) -> VerificationReport:
    """Replay ``game`` and report every mismatch with its seed, its rules and its outcome.

    Raises :class:`NotVerifiable` unless the game is finished.
    """
    if game.status != Game.Status.FINISHED:
        raise NotVerifiable(
            f"game {game.pk} is {game.status}: only a finished game reveals its seed"
        )
    if not spectator.is_public(game):
        raise NotVerifiable(
            f"game {game.pk} is part of a duplicate set still being played on the same deal: "
            "its seed is revealed when the whole set has finished"
        )
    report = VerificationReport(game.pk, game.engine, game.seed, game.seed_commitment)
    if engines.seed_commitment(game.seed) != game.seed_commitment:
        report.add(
            "seed_commitment",
            f"sha256 of the revealed seed is {engines.seed_commitment(game.seed)}, "
            f"but the game committed to {game.seed_commitment}",
        )
    rules = engines.get(game.engine)
    if game.engine_version != rules.version:
        report.add(
            "engine_version",
            f"the game was played under {game.engine} rules version {game.engine_version}, "
            f"but this server has version {rules.version}: the replay checks it against "
            "rules that have changed since, so it cannot vouch for the record",
        )
    state = _replay_checked(game, report)
    if state is not None:
        _check_outcome(game, state, report)
    return report


def _replay_checked(game: Game, report: VerificationReport) -> engines.State | None:
    """Replay the log, checking each ply; the final state, or None if the replay broke off."""
    rules = engines.get(game.engine)
    dealer = Dealer(game.seed)
    state = rules.new_game(game.num_players, game.options)
    moves = Move.objects.filter(game=game).order_by("ply").values_list("ply", "seat", "action")
    expected_ply = 0
    for ply, seat, action in moves:
        if ply != expected_ply:
            report.add("gap", f"expected ply {expected_ply} next, found ply {ply}", ply)
            return None
        expected_ply += 1
        report.plies += 1
        if state.is_over:
            report.add("after_end", "a move was logged after the game was over", ply)
            return None
        to_move = state.to_move
        if to_move == [CHANCE]:
            report.chance_plies += 1
            if seat != CHANCE:
                report.add("chance_turn", f"chance was to move, but seat {seat} moved", ply)
                return None
            expected = dealer.choose(state)
            if not same_json(action, expected):
                report.add(
                    "chance_outcome",
                    f"recorded {_describe(rules, action)!r} ({action}), but the seed gives "
                    f"{_describe(rules, expected)!r} ({expected}) at {state.chance_key()!r}",
                    ply,
                )
        elif seat not in to_move:
            report.add("wrong_seat", f"seat {seat} moved, but {to_move} was to move", ply)
            return None
        try:
            state.apply(seat, action)
        except EngineError as exc:
            report.add("illegal", f"{action} cannot be played here: {exc}", ply)
            return None
    if expected_ply != game.next_ply:
        report.add(
            "move_count", f"{expected_ply} moves logged, but the game counts {game.next_ply}"
        )
    return state


def _check_outcome(game: Game, state: engines.State, report: VerificationReport) -> None:
    if not state.is_over:
        report.add("not_over", f"the replay of {report.plies} plies does not end the game")
        return
    outcome = getattr(game, "outcome", None)
    if outcome is None:
        report.add("outcome", "the game is finished but has no recorded outcome")
        return
    result = state.outcome()
    forfeited = list(game.seats.order_by("position").values_list("forfeited", flat=True))
    ranks = final_ranks(result["ranks"], forfeited)
    if list(outcome.scores) != list(result["scores"]):
        report.add("outcome", f"recorded scores {outcome.scores}, replay gives {result['scores']}")
    if list(outcome.ranks) != ranks:
        report.add("outcome", f"recorded ranks {outcome.ranks}, replay gives {ranks}")


def _describe(rules: engines.Engine, action: Any) -> str:
    try:
        return rules.describe(action)
    except Exception:  # a tampered action may not even be describable
        return "an unknown action"
