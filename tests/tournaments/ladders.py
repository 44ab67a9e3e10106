"""Rated ladders written straight into ``Rating`` for the leaderboard tests (no game played)."""

from __future__ import annotations

from collections.abc import Callable

from games.models import Competitor
from ratings.models import Rating
from ratings.services.scopes import global_scope


def ladder(
    engine: str,
    scores: list[float],
    elo: list[float] | None = None,
    *,
    kinds: Callable[[int], str] = lambda i: "bot",
    games: int = 12,
) -> list[Competitor]:
    """Competitors rated in ``engine``'s ladder: TrueSkill scores as given (sigma 1), OpenSkill
    the reverse order (sigma 2), Elo 1500 + score unless given; ``kinds(i)`` the i-th's kind."""
    scope = global_scope(engine)
    people = Competitor.objects.bulk_create(
        [Competitor(kind=kinds(i), name=f"{engine}-{i:04d}") for i in range(len(scores))]
    )
    elo = elo if elo is not None else [1500 + s for s in scores]
    rows = []
    for person, score, rating in zip(people, scores, elo, strict=True):
        rows += [
            Rating(
                competitor=person,
                scope=scope,
                system="trueskill",
                value=score + 3,
                sigma=1,
                score=score,
                games=games,
            ),
            Rating(
                competitor=person,
                scope=scope,
                system="openskill",
                value=6 - score,
                sigma=2,
                score=-score,
                games=games,
            ),
            Rating(
                competitor=person,
                scope=scope,
                system="elo",
                value=rating,
                score=rating,
                games=games,
            ),
        ]
    Rating.objects.bulk_create(rows)
    return people
