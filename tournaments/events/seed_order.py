"""Seed order: who is seeded first when an event starts, and the organiser's list.

An entry is made *unseeded* (``Entrant.seed_order`` 0). Before the start the
organiser may give seed orders (positive numbers, 1 the top seed) with
:func:`set_order` — typically starting from :func:`proposal` (by rating,
random from the event seed, or as entered) and moving entrants up or down.
At the start every active entrant gets a final, unique order 1..n:

1. entrants the organiser seeded, by the order given (ties: higher rating);
2. then the others by the event's ``seeding``:

   * ``rating`` (the default): current rating, highest first — the league's
     rating when the event belongs to a league, else the engine's global
     ladder; TrueSkill's conservative mu - 3 sigma (the leaderboards' score),
     a newcomer having the system's starting score. Equal ratings are put in
     an order drawn from the event seed, never entry order: entry order
     groups one owner's bots, entered one after another (issue #31);
   * ``random``: an order drawn from the event seed;
   * ``entered``: entry time, then entry id.

The draw is sha256(event seed, entrant id): repeatable from the event seed
(revealed at the end), unknown to anyone before it.

Formats use the order where strength matters (knockout's snake seeding,
Swiss round 1, seat draws), so an event is repeatable from its entrants.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction

from ratings import ledger
from ratings.models import Rating, RatingScope
from ratings.systems import get_system
from tournaments.events.errors import EventError
from tournaments.events.locks import lock_tournament
from tournaments.events.roles import require_organiser
from tournaments.models import Entrant, Tournament

Seeding = Tournament.Seeding

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


def draw(event_seed: str, entrant_pk: int) -> str:
    """The entrant's place in an order drawn from the event seed (compared as text)."""
    return hashlib.sha256(f"{event_seed}:seed-order:{entrant_pk}".encode()).hexdigest()


def ordered(
    entrants: Sequence[Entrant],
    scores: dict[int, float],
    seeding: str = Seeding.RATING,
    event_seed: str = "",
) -> list[Entrant]:
    """``entrants`` in final seed order (see the module's rules)."""

    def unseeded(entrant: Entrant) -> tuple:
        drawn = draw(event_seed, entrant.pk)
        if seeding == Seeding.ENTERED:
            return (entrant.created_at, entrant.pk)
        if seeding == Seeding.RANDOM:
            return (drawn, entrant.pk)
        return (-scores.get(entrant.competitor_id, 0.0), drawn, entrant.pk)

    def key(entrant: Entrant) -> tuple:
        if entrant.seed_order > 0:
            score = -scores.get(entrant.competitor_id, 0.0)
            return (0, (entrant.seed_order, score, entrant.pk))
        return (1, unseeded(entrant))

    return sorted(entrants, key=key)


def assign(tournament: Tournament, entrants: Sequence[Entrant]) -> list[Entrant]:
    """Give ``entrants`` (the active ones) seed orders 1..n and save them; in order."""
    scores = rating_scores(tournament, [e.competitor_id for e in entrants])
    result = ordered(entrants, scores, tournament.seeding, tournament.seed)
    for number, entrant in enumerate(result, start=1):
        entrant.seed_order = number
    Entrant.objects.bulk_update(result, ["seed_order"])
    return result


BEFORE_START = (Tournament.Status.DRAFT, Tournament.Status.ENTRIES_OPEN)
SEEDABLE = (Entrant.Status.ACTIVE, Entrant.Status.PENDING)


def seedable(tournament: Tournament) -> list[Entrant]:
    """The entries an organiser may seed: active and pending, in their current order."""
    return list(
        tournament.entrants.filter(status__in=SEEDABLE)
        .select_related("competitor")
        .order_by("seed_order", "pk")
    )


def proposal(tournament: Tournament, seeding: str) -> list[Entrant]:
    """The seedable entries as ``seeding`` would order them, ignoring hand-given orders.

    A starting point for the organiser's list (nothing is saved). "random"
    needs the event seed, drawn when entries open: EventError before.
    """
    if seeding not in Seeding.values:
        raise EventError(
            f"there is no seeding {seeding!r}: choose one of {', '.join(Seeding.values)}"
        )
    if seeding == Seeding.RANDOM and not tournament.seed:
        raise EventError(
            "a random order is drawn from the event seed, which is drawn when entries open: "
            "open entries first"
        )
    rows = seedable(tournament)
    for row in rows:
        row.seed_order = 0
    scores = rating_scores(tournament, [row.competitor_id for row in rows])
    return ordered(rows, scores, seeding, tournament.seed)


def set_order(tournament: Tournament, orders: Mapping[int, int], *, by: Any = None) -> None:
    """Save the organiser's seed orders: entrant id -> position (1 the top; 0 unseeded).

    Before the start only; every id must be an active or pending entry of
    the event, and the positions given must differ. All or nothing.
    """
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "set its seed order")
        if event.status not in BEFORE_START:
            raise EventError(
                f"{event.name} is {event.get_status_display()}: the seed order is fixed at the "
                "start and cannot change after it"
            )
        rows = {row.pk: row for row in seedable(event)}
        unknown = sorted(set(orders) - set(rows))
        if unknown:
            raise EventError(
                f"entries {', '.join(map(str, unknown))} are not active or waiting entries of "
                f"{event.name}: reload the page and try again"
            )
        negative = [rows[pk].competitor.name for pk, n in orders.items() if n < 0]
        if negative:
            raise EventError(
                f"a seed order is 1 or more (0 or empty: unseeded), not negative: "
                f"{', '.join(negative)}"
            )
        taken: dict[int, list[str]] = {}
        for pk, number in orders.items():
            if number > 0:
                taken.setdefault(number, []).append(rows[pk].competitor.name)
        twice = [f"{n} ({' and '.join(names)})" for n, names in taken.items() if len(names) > 1]
        if twice:
            raise EventError(f"two entrants have the same seed order: {'; '.join(twice)}")
        for pk, number in orders.items():
            rows[pk].seed_order = number
        Entrant.objects.bulk_update([rows[pk] for pk in orders], ["seed_order"])
