"""Seed order: who is seeded first when an event starts.

An entry is made *unseeded* (``Entrant.seed_order`` 0). The organiser may
give seed orders (positive numbers, 1 the top seed) before the start; at the
start every active entrant gets a final, unique order 1..n:

1. entrants the organiser seeded, by the order given (ties: higher rating);
2. then the others by their current rating, highest first — the league's
   rating when the event belongs to a league, else the engine's global
   ladder; TrueSkill's conservative mu - 3 sigma (the leaderboards' score), a
   newcomer having the system's starting score;
3. equal ratings by entry time, then entry id.

Formats use the order where strength matters (knockout's snake seeding,
Swiss round 1, seat draws), so an event is repeatable from its entrants.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ratings import ledger
from ratings.models import Rating, RatingScope
from ratings.systems import get_system
from tournaments.models import Entrant, Tournament

SEEDING_SYSTEM = "trueskill"
"""The rating system seeds are ordered by (its mu - 3 sigma score); another if a scope lacks it."""


def _scope(tournament: Tournament) -> RatingScope | None:
    if tournament.league_id is not None:
        return RatingScope.objects.filter(
            kind=RatingScope.Kind.LEAGUE, league_id=tournament.league_id
        ).first()
    return RatingScope.objects.filter(
        kind=RatingScope.Kind.GLOBAL, engine=tournament.engine
    ).first()


def _newcomer_score(scope: RatingScope | None, system: str) -> float:
    """The score a competitor without a rating has (the system's starting rating)."""
    if scope is None or system not in scope.systems:
        params = None
    else:
        params = scope.systems[system]["params"]
    rating_system = get_system(system)
    return ledger.score(rating_system, ledger.initial(rating_system, rating_system.params(params)))


def rating_scores(tournament: Tournament, competitor_ids: Iterable[int]) -> dict[int, float]:
    """Competitor id -> seeding score (league scope, else the engine's global one)."""
    ids = list(competitor_ids)
    scope = _scope(tournament)
    system = SEEDING_SYSTEM
    if scope is not None and system not in scope.systems and scope.systems:
        system = next(iter(scope.systems))
    newcomer = _newcomer_score(scope, system)
    scores = dict.fromkeys(ids, newcomer)
    if scope is not None:
        rows = Rating.objects.filter(scope=scope, system=system, competitor_id__in=ids)
        scores.update(rows.values_list("competitor_id", "score"))
    return scores


def ordered(entrants: Sequence[Entrant], scores: dict[int, float]) -> list[Entrant]:
    """``entrants`` in final seed order (see the module's rules)."""

    def key(entrant: Entrant) -> tuple:
        score = -scores.get(entrant.competitor_id, 0.0)
        if entrant.seed_order > 0:
            return (0, entrant.seed_order, score, entrant.created_at, entrant.pk)
        return (1, 0, score, entrant.created_at, entrant.pk)

    return sorted(entrants, key=key)


def assign(tournament: Tournament, entrants: Sequence[Entrant]) -> list[Entrant]:
    """Give ``entrants`` (the active ones) seed orders 1..n and save them; in order."""
    scores = rating_scores(tournament, [e.competitor_id for e in entrants])
    result = ordered(entrants, scores)
    for number, entrant in enumerate(result, start=1):
        entrant.seed_order = number
    Entrant.objects.bulk_update(result, ["seed_order"])
    return result
