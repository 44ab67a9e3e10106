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
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game

from . import ledger, signals
from .models import Rating, RatingChange, RatingScope
from .results import rated_seats
from .scopes import lock_for_apply, scopes_for
from .systems import get_system

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

    Does nothing (returns 0) for an unrated game, a game already applied, or a
    game with one competitor in two seats.
    """
    # NO KEY UPDATE: enough to keep a second application of this game out, and it
    # does not block the foreign-key checks a recompute's commit runs on its games.
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if not game.rated or game.status != Game.Status.FINISHED:
        return 0
    result = game_result(game)
    if not result.ratable:
        log.warning("game %s: a competitor holds two seats; ratings unchanged", game.pk)
        return 0
    scopes = scopes_for(game)
    # Checked only once any recompute of these scopes is done: it may have rated the game.
    lock_for_apply(scopes)
    if RatingChange.objects.filter(game=game).exists():
        return 0
    competitors = list(result.competitors)
    current = _locked_ratings(scopes, competitors)
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(finished_at=now)
    changes: list[RatingChange] = []
    # Its ladders, page and competitor pages (the page cache listens).
    signals.game_rated.send(sender=RatingChange, game=game, competitor_ids=competitors)
    for scope in scopes:
        for name, conf in scope.systems.items():
            system = get_system(name)
            rows = [current[(scope.pk, name, c)] for c in competitors]
            before = [(r.value, r.sigma) for r in rows]
            after = ledger.rate_game(system, conf["params"], before, result.ranks)
            for row, old, new, rank in zip(rows, before, after, result.ranks, strict=True):
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
    return len(changes)
