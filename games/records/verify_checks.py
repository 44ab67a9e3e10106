"""A verification report as checks in words, for the human-readable verify page.

``games.records.verification`` lists what does not match; a person reading a
game's audit wants the other half too: what was checked and passed. This
groups the report's problems under the checks the audit makes, each passed,
failed (with every problem under it) or not reached (the replay stopped
before it: a gap, a move by the wrong seat or an illegal action ends it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.records.verification import Problem, VerificationReport

PASSED = "passed"
FAILED = "failed"
NOT_REACHED = "not checked"

STOPS_THE_REPLAY = frozenset({"gap", "after_end", "chance_turn", "wrong_seat", "illegal"})
"""Problem kinds after which ``verification`` replays no further."""


@dataclass
class Check:
    """One thing the audit confirms, with its verdict and the problems that failed it."""

    key: str
    title: str
    verdict: str
    summary: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.verdict == PASSED


def checks(report: VerificationReport, engine_version: str, server_version: str) -> list[Check]:
    """Every check of ``report`` in the order a reader follows it: seed, rules, log, dice, end."""
    by_kind: dict[str, list[Problem]] = {}
    for problem in report.problems:
        by_kind.setdefault(problem.kind, []).append(problem)
    stop = next((p for p in report.problems if p.kind in STOPS_THE_REPLAY), None)

    def found(*kinds: str) -> list[Problem]:
        return [p for kind in kinds for p in by_kind.get(kind, [])]

    def check(key: str, title: str, problems: list[Problem], ok: str, bad: str) -> Check:
        return Check(key, title, FAILED if problems else PASSED, bad if problems else ok, problems)

    result = [
        check(
            "seed",
            "The seed is the one committed to",
            found("seed_commitment"),
            "sha256 of the revealed seed equals the commitment published when the game was "
            "created, so the seed was fixed before the first move.",
            "The revealed seed does not hash to the commitment published at creation.",
        ),
        check(
            "rules",
            "Played under this server's rules",
            found("engine_version"),
            f"The game was played under rules version {engine_version}, the one this server "
            "replays it with.",
            f"The game was played under rules version {engine_version}; this server has "
            f"version {server_version}, so its replay cannot vouch for the record.",
        ),
        check(
            "log",
            "The move log is complete and in turn",
            found("gap", "after_end", "chance_turn", "wrong_seat", "move_count"),
            f"All {report.plies} moves are logged without a gap, each by the seat (or chance) "
            "that was to move.",
            "The move log has a gap, a move out of turn, or a different length than the game "
            "counts.",
        ),
    ]
    result += [
        check(
            "chance",
            "Every chance draw comes from the seed",
            found("chance_outcome"),
            f"Each of the {report.chance_plies} dice rolls, deals and draws is exactly the one "
            "the seed gives at that point (re-derived here with the game's Dealer).",
            "These chance moves differ from what the seed gives at their ply.",
        ),
        check(
            "legal",
            "Every player action is legal",
            found("illegal"),
            "Every action a player took was among the legal ones at its turn.",
            "An action in the log cannot be played where it stands.",
        ),
        check(
            "outcome",
            "The replay reproduces the recorded result",
            found("not_over", "outcome"),
            "Replaying the log ends the game with exactly the recorded scores and ranks "
            "(forfeited seats last).",
            "The replay does not end the game with the recorded scores and ranks.",
        ),
    ]
    if stop is not None:  # what comes after the stop was never looked at
        for item in result[2:]:
            if item.passed:
                item.verdict = NOT_REACHED
                item.summary = _not_reached(item.key, stop.ply, report)
    return result


def _not_reached(key: str, ply: int | None, report: VerificationReport) -> str:
    """What a check that passed as far as the replay went can say when it stopped at ``ply``."""
    if key == "log":
        return (
            f"The moves before ply {ply} are logged without a gap and in turn; the rest of "
            f"the log was not checked: the replay stopped at ply {ply}."
        )
    if key == "chance":
        return (
            f"The {report.chance_plies} chance draws before ply {ply} match the seed; later "
            f"ones were not checked: the replay stopped at ply {ply}."
        )
    return f"Not checked: the replay stopped at ply {ply}."
