"""Applying a finished game to every rating it counts for, exactly once.

``apply_game_result`` runs inside the transaction that records the game's
outcome. Exactly-once comes from four layers: the game row is locked, the
game's scopes are share-locked so a running recompute of them finishes first
(``scopes.lock_for_apply``), a game that already has rating changes is then
skipped, and ``RatingChange`` is unique on (game, competitor, scope, system).
Rating rows are locked (in primary-key order, so two games never deadlock)
before they are read, so two games finishing at once in two workers both
apply without a lost update.

Finish order is application order: the game's ``finished_at`` is stamped only
once its rating rows are locked, so any two games that share a competitor are
ordered the same way by the clock as by the locks, and a recompute in
``finished_at`` order reproduces the live ratings exactly.

A game of a duplicate set waits for its set: while another game of the set
still plays the same deal, a rating change would tell its ranks (to a bot
still at that deal, among others), so nothing is applied. The finish or abort
that closes the set applies every finished game of it, in finish order then
id, each stamped as it is applied (strictly later than the one before), so
the same ``finished_at`` order still replays it (decision record 0026). The
set's table row is locked first, as ``stats.services`` does: of two games of a
set finishing at once, the second sees the first finished, so the set is
never left closed and unrated.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game
from ratings import ledger, signals
from ratings.models import Rating, RatingChange, RatingScope
from ratings.results import rated_seats
from ratings.services.scopes import lock_for_apply, scopes_for
from ratings.systems import get_system

log = logging.getLogger(__name__)


def game_result(game: Game) -> ledger.GameResult:
    """The rated competitors and their final ranks (forfeits last) of a finished game.

    Seats withdrawn from an event during the game are left out (``results.rated_seats``).
    """
    seats = list(game.seats.order_by("position"))
    positions, ranks = rated_seats(
        game.outcome.ranks,
        [seat.forfeited for seat in seats],
        [seat.withdrawn for seat in seats],
    )
    return ledger.GameResult(
        game_id=game.pk,
        finished_at=game.finished_at,
        competitors=tuple(seats[i].competitor_id for i in positions),
        ranks=tuple(ranks),
    )


def _locked_ratings(
    scopes: list[RatingScope], competitors: list[int]
) -> dict[tuple[int, str, int], Rating]:
    """Every rating row the game touches, created if new, then locked in pk order."""
    missing = []
    for scope in scopes:
        for name, conf in scope.systems.items():
            value, sigma = ledger.initial(get_system(name), conf["params"])
            score = ledger.score(get_system(name), (value, sigma))
            missing += [
                Rating(
                    competitor_id=c,
                    scope=scope,
                    system=name,
                    value=value,
                    sigma=sigma,
                    score=score,
                )
                for c in sorted(competitors)
            ]
    Rating.objects.bulk_create(missing, ignore_conflicts=True)
    rows = (
        Rating.objects.select_for_update()
        .filter(scope__in=scopes, competitor_id__in=competitors)
        .order_by("pk")
    )
    return {(r.scope_id, r.system, r.competitor_id): r for r in rows}


def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """The ``games.signals.game_finished`` receiver (connected in ``RatingsConfig.ready``)."""
    apply_game_result(game)


@transaction.atomic
def apply_game_result(game: Game) -> int:
    """Update every system in every scope the game counts for; return changes written.

    Does nothing (returns 0) for an unrated game, a game already applied, a
    game with one competitor in two seats, or a game whose duplicate set
    still plays (it is applied when the set closes). The game that closes
    its set applies the whole set, and the count covers all of it.
    """
    # NO KEY UPDATE: enough to keep a second application of this game out, and it
    # does not block the foreign-key checks a recompute's commit runs on its games.
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if not game.rated or game.status != Game.Status.FINISHED:
        return 0
    if game.table_id is None:
        return _apply(game)[0]
    return apply_closed_set(game.table_id)


def apply_closed_set(table_id: int) -> int:
    """Apply every finished, not yet applied game of a duplicate set, if the set is over.

    Returns the changes written (0 while another game of the set is
    scheduled or running). Runs in the caller's transaction, which holds the
    set's table row locked to its end.
    """
    _lock_table(table_id)
    if _set_still_playing(table_id):
        return 0
    applied = RatingChange.objects.filter(game=OuterRef("pk"))
    waiting = (
        Game.objects.select_for_update(no_key=True)
        .filter(table_id=table_id, status=Game.Status.FINISHED, rated=True)
        .filter(~Exists(applied))
        .order_by("finished_at", "pk")
    )
    written, previous = 0, None
    for game in waiting:
        count, previous = _apply(game, after=previous)
        written += count
    return written


def on_games_settled(sender: Any, game_ids: Iterable[int], **kwargs: Any) -> None:
    """The ``games_settled`` receiver: an aborted game may close its duplicate set.

    A finish closes its set through :func:`apply_game_result`; an abort
    (``step_failures.abort``, an event's cancellation) rates no game of its
    own, but its set's finished games may now be applied.
    """
    tables = (
        Game.objects.filter(pk__in=list(game_ids), status=Game.Status.ABORTED)
        .exclude(table_id=None)
        .values_list("table_id", flat=True)
        .distinct()
    )
    with transaction.atomic():  # the sender's, or its own when sent outside one
        for table_id in sorted(tables):
            apply_closed_set(table_id)


def _lock_table(table_id: int) -> None:
    """Lock the set's table row (the model named through ``Game.table``, not imported)."""
    table = Game._meta.get_field("table").related_model
    # Its row only: the model's default ordering joins the round and the event, whose
    # rows FOR UPDATE would lock too, making every table of an event wait for one another.
    rows = table.objects.select_for_update(of=("self",)).filter(pk=table_id).order_by()
    list(rows.values_list("pk"))


def _set_still_playing(table_id: int) -> bool:
    """Whether a game of the set is scheduled or running (``spectator.set_still_playing``)."""
    playing = (Game.Status.SCHEDULED, Game.Status.RUNNING)
    return Game.objects.filter(table_id=table_id, status__in=playing).exists()


def _apply(game: Game, after: datetime | None = None) -> tuple[int, datetime | None]:
    """Apply one finished, rated game (locked by the caller); the changes and its stamp.

    The stamp (its new ``finished_at``) is strictly later than ``after``, the
    stamp of the game applied just before in the same set, so a recompute
    replays them in the order they were applied here even when the clock
    gives the same instant twice.
    """
    result = game_result(game)
    if not result.ratable:
        log.warning("game %s: a competitor holds two seats; ratings unchanged", game.pk)
        return 0, after
    scopes = scopes_for(game)
    # Checked only once any recompute of these scopes is done: it may have rated the game.
    lock_for_apply(scopes)
    if RatingChange.objects.filter(game=game).exists():
        return 0, after
    competitors = list(result.competitors)
    current = _locked_ratings(scopes, competitors)
    now = timezone.now()
    if after is not None and now <= after:
        now = after + timedelta(microseconds=1)
    Game.objects.filter(pk=game.pk).update(finished_at=now)
    changes: list[RatingChange] = []
    # Its ladders, page and competitor pages (the page cache listens).
    signals.game_rated.send(sender=RatingChange, game=game, competitor_ids=competitors)
    for scope in scopes:
        for name, conf in scope.systems.items():
            system = get_system(name)
            rows = [current[(scope.pk, name, c)] for c in competitors]
            before = [(r.value, r.sigma) for r in rows]
            rated = ledger.rate_game(system, conf["params"], before, result.ranks)
            for row, old, new, rank in zip(rows, before, rated, result.ranks, strict=True):
                row.value, row.sigma = new
                row.score = ledger.score(system, new)
                row.games += 1
                row.last_game_id = game.pk
                row.last_game_at = now
                changes.append(
                    RatingChange(
                        game_id=game.pk,
                        competitor_id=row.competitor_id,
                        scope=scope,
                        system=name,
                        rank=rank,
                        before_value=old[0],
                        before_sigma=old[1],
                        after_value=new[0],
                        after_sigma=new[1],
                    )
                )
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(
        list(current.values()),
        ["value", "sigma", "score", "games", "last_game", "last_game_at"],
    )
    return len(changes), now
