"""What the pages read of the ratings without changing them (writes are in ``ratings.services``)."""

from __future__ import annotations

from ratings.models import RatingScope


def global_ladder(engine: str) -> RatingScope | None:
    """The engine's global ladder, None before its first rated game (never created here)."""
    return RatingScope.objects.filter(kind=RatingScope.Kind.GLOBAL, engine=engine).first()


def global_ladders() -> dict[str, RatingScope]:
    """Every engine's global ladder by engine slug: one query."""
    return {
        scope.engine: scope for scope in RatingScope.objects.filter(kind=RatingScope.Kind.GLOBAL)
    }
