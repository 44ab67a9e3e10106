"""The organiser's result for an event game that was aborted or broken (adjudication).

A game of an event that cannot end in play -- aborted by the referee after
repeated failures, or stuck (the organiser judges it broken) -- leaves its
table without a result, so its entrants score nothing for the round. The
organiser may enter one: :func:`adjudicate` records the ranks (and scores)
in seat order, the reason and who entered it, in an ``Adjudication`` row.

What it does not do, and why (decision 0036):

* The game stays **aborted**. Its record is what was played (decision 0020):
  the moves, the seed and its commitment are never rewritten, and
  ``verify_game`` still replays what was played. A running game the
  organiser adjudicates is aborted first, as a cancelled event's are, and
  the referee refuses every later step of it.
* It changes **no rating**. Ratings update once per finished game, from
  play; an adjudicated game is not a finished game, and an organiser's
  judgment is not evidence of strength.
* The event's standings count it: ``events.history`` reads the table's
  result from the adjudication, and the pages mark it as adjudicated, with
  who entered it and why.

A second adjudication of the same game replaces the first (a correction);
the admin's log keeps both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.models import Game
from games.signals import games_settled
from tournaments.events.errors import EventError
from tournaments.events.locks import lock_tournament
from tournaments.events.roles import require_organiser
from tournaments.events.rounds import on_game_finished
from tournaments.models import Adjudication, Tournament

S = Tournament.Status
ADJUDICABLE_EVENTS = (S.RUNNING, S.PAUSED, S.FINISHED)
UNFINISHED = (Game.Status.SCHEDULED, Game.Status.RUNNING)


def adjudicate(
    game: Game,
    *,
    ranks: Sequence[Any],
    scores: Sequence[Any] | None = None,
    reason: str,
    by: Any = None,
) -> Adjudication:
    """Record the organiser's result for ``game`` (an event game aborted or broken).

    ``ranks`` and ``scores`` are per seat in seat order (the game's seat 0
    first); scores default to 0 for every seat. Raises ``EventError`` with
    what to fix, having changed nothing.
    """
    if game.tournament_id is None or game.table_id is None:
        raise EventError(f"game {game.pk} is not a game of an event's table")
    reason = (reason or "").strip()
    with transaction.atomic():
        event = lock_tournament(game.tournament_id)
        require_organiser(event, by, "adjudicate its games")
        if event.status not in ADJUDICABLE_EVENTS:
            raise EventError(
                f"{event.name} is {event.get_status_display()}: only the games of a running, "
                "paused or finished event are adjudicated"
            )
        locked = Game.objects.select_for_update().filter(pk=game.pk).first()
        if locked is None:
            raise EventError(f"there is no game {game.pk}")
        if locked.status == Game.Status.FINISHED:
            raise EventError(
                f"game {locked.pk} finished in play: its result and ratings stand, and only an "
                "aborted or broken game is adjudicated"
            )
        if not reason:
            raise EventError(
                f"say why game {locked.pk} is adjudicated; the reason is shown on its page"
            )
        clean_ranks = checked_ranks(ranks, locked.num_players)
        clean_scores = checked_scores(scores, locked.num_players)
        if locked.status in UNFINISHED:
            _abort(locked, reason)
        row, _ = Adjudication.objects.update_or_create(
            game=locked,
            defaults={
                "ranks": clean_ranks,
                "scores": clean_scores,
                "reason": reason,
                "by": by if getattr(by, "pk", None) else None,
                "by_name": _name_of(by),
            },
        )
        # The event's pages and statistics read the table's result: their tokens follow.
        games_settled.send(sender=Game, game_ids=[locked.pk])
    return row


def _abort(game: Game, reason: str) -> None:
    """A broken game: aborted as a cancelled event's games are; its round may end."""
    Game.objects.filter(pk=game.pk, status__in=UNFINISHED).update(
        status=Game.Status.ABORTED, status_reason=f"adjudicated by the organiser: {reason}"
    )
    game.status = Game.Status.ABORTED
    on_game_finished(game)


def _name_of(user: Any) -> str:
    if user is None:
        return "the organiser"
    return user.get_username() if hasattr(user, "get_username") else str(user)


def checked_ranks(ranks: Sequence[Any], seats: int) -> list[int]:
    """Ranks per seat as the standings read them (1 best, ties share, 1 1 3), or EventError."""
    example = ", ".join(str(n) for n in range(1, seats + 1))
    try:
        clean = [int(str(rank).strip()) for rank in ranks]
    except (TypeError, ValueError):
        raise EventError(
            f"the ranks are whole numbers, one per seat in seat order, e.g. {example}"
        ) from None
    if len(clean) != seats:
        raise EventError(
            f"give one rank per seat: the game has {seats} seats and {len(clean)} rank(s) were "
            f"given (e.g. {example})"
        )
    expected = [1 + sum(other < rank for other in clean) for rank in clean]
    if clean != expected:
        raise EventError(
            f"ranks {', '.join(map(str, clean))} are not places: 1 is best, tied seats share a "
            "rank and the next rank counts them all (1, 1, 3, 4)"
        )
    return clean


def checked_scores(scores: Sequence[Any] | None, seats: int) -> list[float]:
    """Scores per seat (0 each when none are given), or EventError."""
    if not scores:
        return [0.0] * seats
    try:
        clean = [float(str(score).strip()) for score in scores]
    except (TypeError, ValueError):
        raise EventError("the scores are numbers, one per seat in seat order") from None
    if len(clean) != seats or any(score != score or abs(score) == float("inf") for score in clean):
        raise EventError(
            f"give one finite score per seat: the game has {seats} seats and {len(clean)} "
            "score(s) were given (or leave the scores empty for 0 each)"
        )
    return clean
