"""Leaderboards ranked and paged in the database: only the rows a page shows are read.

A page is one scope (an engine's global ladder or a league) and one system to
sort by (TrueSkill's mu - 3 sigma, or Elo). The rows come from one query on
``Rating`` for that scope and system, ordered ``score DESC, competitor_id``
(the ``rating_ladder_order`` index) with ``RANK()`` over the same order, so a
row's rank is 1 + the number of entries with a strictly better score on
whatever page it is shown, ties sharing it. The other system's columns come
from the same competitor's rating in the scope, joined on the one-rating-per-
system key. The count for the page links is a count of the scope's rows in
that system (an index-only scan of at most a few thousand entries).

``apply_game_result`` creates every system's row of a scope at once, so a
rated competitor has a row in each; a scope that lacks the asked system is
ranked by the other one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import F, FilteredRelation, Q, QuerySet, Window
from django.db.models.functions import Rank

from ratings.models import Rating, RatingScope

SYSTEMS = ("trueskill", "elo")
PAGE_SIZE = 50
TOP_ROWS = 5


@dataclass(frozen=True)
class LeaderboardRow:
    """A competitor's ratings in one scope: rank, TrueSkill and Elo side by side."""

    rank: int
    competitor_id: int
    competitor: str
    kind: str
    games: int
    elo: float | None
    trueskill_mu: float | None
    trueskill_sigma: float | None
    trueskill_score: float | None

    # Formatted here, not with ``floatformat`` (Decimal arithmetic per cell: over a third of
    # a long leaderboard's render time, a review found).
    @property
    def trueskill_score_text(self) -> str:
        return _fixed(self.trueskill_score, 2)

    @property
    def trueskill_mu_text(self) -> str:
        return _fixed(self.trueskill_mu, 2)

    @property
    def trueskill_sigma_text(self) -> str:
        return _fixed(self.trueskill_sigma, 2)

    @property
    def elo_text(self) -> str:
        return _fixed(self.elo, 1)


def _fixed(value: float | None, places: int) -> str:
    """``value`` with ``places`` decimals (a dash when missing), as ``floatformat`` shows it."""
    if value is None:
        return "—"
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def sort_system(scope: RatingScope | None, order_by: str) -> str:
    """The system a page is ranked by: the one asked, unless the scope does not rate it."""
    wanted = "elo" if order_by == "elo" else "trueskill"
    if scope is None or wanted in scope.systems:
        return wanted
    return next((name for name in SYSTEMS if name in scope.systems), wanted)


def ranked(scope: RatingScope, system: str) -> QuerySet[Rating]:
    """The scope's ratings in ``system``, best first, ranked, with the other system joined.

    Lazy: slice it, and the database ranks and limits (``RANK()`` is computed
    before ``LIMIT``/``OFFSET``, over the whole scope, so ranks survive pages).
    """
    other = "elo" if system == "trueskill" else "trueskill"
    return (
        Rating.objects.filter(scope=scope, system=system)
        .annotate(
            peer=FilteredRelation(
                "competitor__ratings",
                condition=Q(competitor__ratings__scope=scope, competitor__ratings__system=other),
            ),
            rank=Window(Rank(), order_by=F("score").desc()),
            other_value=F("peer__value"),
            other_sigma=F("peer__sigma"),
            other_score=F("peer__score"),
            other_games=F("peer__games"),
        )
        .select_related("competitor")
        .order_by("-score", "competitor_id")
    )


def _row(rating: Rating) -> LeaderboardRow:
    """One page row from a rating of :func:`ranked` (its system and the joined other one)."""
    if rating.system == "trueskill":
        mu, sigma, score = rating.value, rating.sigma, rating.score
        elo = rating.other_value
    else:
        mu, sigma, score = rating.other_value, rating.other_sigma, rating.other_score
        elo = rating.value
    return LeaderboardRow(
        rank=rating.rank,
        competitor_id=rating.competitor_id,
        competitor=rating.competitor.name,
        kind=rating.competitor.kind,
        games=max(rating.games, rating.other_games or 0),
        elo=elo,
        trueskill_mu=mu,
        trueskill_sigma=sigma,
        trueskill_score=score,
    )


class _Ladder:
    """What :class:`Paginator` pages: a cheap count, and slices read as rows."""

    def __init__(self, ratings: QuerySet[Rating], count: int) -> None:
        self._ratings = ratings
        self._count = count

    def count(self) -> int:
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: slice) -> list[LeaderboardRow]:
        return [_row(rating) for rating in self._ratings[index]]


def top(scope: RatingScope | None, order_by: str = "trueskill", size: int = TOP_ROWS):
    """The scope's best ``size`` rows: one query."""
    if scope is None:
        return []
    return [_row(rating) for rating in ranked(scope, sort_system(scope, order_by))[:size]]


def page(
    scope: RatingScope | None,
    order_by: str = "trueskill",
    number: object = 1,
    per_page: int = PAGE_SIZE,
) -> Page:
    """One page of the scope's ladder (a number past the end gives the last page).

    Two queries: the scope's count in the system, then the page's rows.
    """
    if scope is None:
        return Paginator([], per_page).get_page(1)
    system = sort_system(scope, order_by)
    count = Rating.objects.filter(scope=scope, system=system).count()
    ladder = _Ladder(ranked(scope, system), count)
    return Paginator(ladder, per_page).get_page(number)
