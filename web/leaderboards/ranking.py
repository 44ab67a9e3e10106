"""Leaderboards ranked and paged in the database: only the rows a page shows are read.

A board is one scope (an engine's global ladder or a league), one rating
system (TrueSkill or OpenSkill by the conservative score mu - 3 sigma, Elo by
the rating: ``Rating.score`` holds either) and one kind of competitor (all,
bots or people). The rows come from one query on ``Rating`` for that scope
and system, joined to the competitor (for its name, and for the kind filter),
ordered ``score DESC, competitor_id`` (the ``rating_ladder_order`` index) with
``RANK()`` over the same order. The window is computed after ``WHERE`` and
before ``LIMIT``/``OFFSET``, so a row's rank is 1 + the number of entries
*of the filtered set* with a strictly better score, whatever page shows it,
ties sharing it: with ``kind=person`` a person's rank is their rank among
people. The count for the page links is a count of the same set.

An entry with fewer than ``settings.LEADERBOARD_PROVISIONAL_GAMES`` games is
marked provisional (its score can still move a lot) and still ranked.

A scope records the systems it rates (``RatingScope.systems``); a board in a
system the scope does not rate is empty, and the pages and the API say so
(:func:`rates`) rather than show another system under the asked name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank

from botapi.selectors import anchors
from ratings.models import Rating, RatingScope
from web.id_paths import id_path

SYSTEMS = ("trueskill", "openskill", "elo")
"""Every system a board can show, in the order the pages offer them."""
SYSTEM_NAMES = {"trueskill": "TrueSkill", "openskill": "OpenSkill", "elo": "Elo"}
DEFAULT_SYSTEM = "trueskill"
KINDS = ("all", "bot", "person")
DEFAULT_KIND = "all"
PAGE_SIZE = 50
TOP_ROWS = 5
EXPORT_CHUNK = 500
DEFAULT_PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Ladder:
    """What a board shows of a scope: which system ranks it, and which competitors."""

    system: str = DEFAULT_SYSTEM
    kind: str = DEFAULT_KIND

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ValueError(f"unknown system {self.system!r}; known: {', '.join(SYSTEMS)}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}; known: {', '.join(KINDS)}")

    @property
    def bayesian(self) -> bool:
        """TrueSkill and OpenSkill have mu and sigma (the score is mu - 3 sigma); Elo has not."""
        return self.system != "elo"

    @property
    def system_name(self) -> str:
        return SYSTEM_NAMES[self.system]


def provisional_games() -> int:
    """An entry with fewer rated games than this is provisional (a setting, default 10)."""
    return int(getattr(settings, "LEADERBOARD_PROVISIONAL_GAMES", DEFAULT_PROVISIONAL_GAMES))


@dataclass(frozen=True)
class LeaderboardRow:
    """A competitor's rating in one scope and system, with its rank on the board.

    ``value`` is the Elo rating or mu, ``sigma`` empty for Elo, ``score`` what
    ranks (the Elo rating, or mu - 3 sigma).
    """

    rank: int
    competitor_id: int
    competitor: str
    kind: str
    games: int
    provisional: bool
    value: float
    sigma: float | None
    score: float
    anchor: str = ""
    """The house anchor's slug (``Bot.anchor``), blank for everyone else: the row's mark."""

    # Formatted here, not with ``floatformat`` (Decimal arithmetic per cell: over a third of
    # a long leaderboard's render time, a review found).
    @property
    def score_text(self) -> str:
        return _fixed(self.score, 1 if self.sigma is None else 2)

    @property
    def value_text(self) -> str:
        return _fixed(self.value, 1 if self.sigma is None else 2)

    @property
    def sigma_text(self) -> str:
        return _fixed(self.sigma, 2)

    @property
    def anchor_summary(self) -> str:
        """What the house anchor is, one sentence ("" for everyone else)."""
        return anchors.describe(self.anchor)

    @property
    def url(self) -> str:
        """The competitor's page (``/competitors/<id>/`` redirects to the bot's or person's)."""
        return id_path("stats:competitor", self.competitor_id)


def _fixed(value: float | None, places: int) -> str:
    """``value`` with ``places`` decimals (a dash when missing), as ``floatformat`` shows it."""
    if value is None:
        return "—"
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def rated_systems(scope: RatingScope | None) -> tuple[str, ...]:
    """The systems the scope rates, in :data:`SYSTEMS` order (all of them before any game)."""
    if scope is None:
        return SYSTEMS
    return tuple(name for name in SYSTEMS if name in scope.systems)


def rates(scope: RatingScope | None, system: str) -> bool:
    """Whether a board of ``scope`` can be ranked by ``system``."""
    return system in rated_systems(scope)


def _entries(scope: RatingScope, ladder: Ladder) -> QuerySet[Rating]:
    """The scope's ratings in the ladder's system, of the ladder's kind of competitor."""
    ratings = Rating.objects.filter(scope=scope, system=ladder.system)
    if ladder.kind != "all":
        ratings = ratings.filter(competitor__kind=ladder.kind)
    return ratings


def ranked(scope: RatingScope, ladder: Ladder) -> QuerySet[Rating]:
    """The board's ratings, best first, ranked within the filtered set.

    Lazy: slice it, and the database ranks and limits (``RANK()`` is computed
    after ``WHERE`` and before ``LIMIT``/``OFFSET``, so ranks survive pages).
    """
    return (
        _entries(scope, ladder)
        .annotate(rank=Window(Rank(), order_by=F("score").desc()))
        .select_related("competitor")
        .order_by("-score", "competitor_id")
    )


_ROW_FIELDS = ("rank", "competitor_id", "competitor__name", "competitor__kind", "games",
               "value", "sigma", "score", "competitor__bot__anchor")  # fmt: skip
"""What a row shows, read as plain tuples: a ``Rating`` and a ``Competitor`` object per row
cost more than the rest of the leaderboard CSV's 1,000 rows together (cProfile)."""


def _rows(ratings: QuerySet[Rating]) -> QuerySet:
    """:func:`ranked`'s rows as tuples of :data:`_ROW_FIELDS` (the same query, one join)."""
    return ratings.values_list(*_ROW_FIELDS)


def _row(values: tuple, provisional_below: int) -> LeaderboardRow:
    """One board row from a tuple of :data:`_ROW_FIELDS`."""
    rank, competitor_id, name, kind, games, value, sigma, score, anchor = values
    return LeaderboardRow(
        rank=rank,
        competitor_id=competitor_id,
        competitor=name,
        kind=kind,
        games=games,
        provisional=games < provisional_below,
        value=value,
        sigma=sigma,
        score=score,
        anchor=anchor or "",
    )


class _Board:
    """What :class:`Paginator` pages: a count made once, and slices read as rows."""

    def __init__(self, ratings: QuerySet[Rating], count: int) -> None:
        self._ratings = ratings
        self._count = count
        self._provisional_below = provisional_games()

    def count(self) -> int:
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: slice) -> list[LeaderboardRow]:
        return [_row(values, self._provisional_below) for values in _rows(self._ratings)[index]]


def pageable(scope: RatingScope | None, ladder: Ladder) -> _Board | list[LeaderboardRow]:
    """The board as something a paginator (Django's or DRF's) pages: one count query now,
    one query per page read. Empty when the scope has no rating yet or does not rate the
    system."""
    if scope is None or not rates(scope, ladder.system):
        return []
    return _Board(ranked(scope, ladder), _entries(scope, ladder).count())


def page(
    scope: RatingScope | None,
    ladder: Ladder = Ladder(),
    number: object = 1,
    per_page: int = PAGE_SIZE,
) -> Page:
    """One page of the board (a number past the end gives the last page).

    Two queries: the board's count, then the page's rows.
    """
    return Paginator(pageable(scope, ladder), per_page).get_page(number)


def top(
    scope: RatingScope | None, ladder: Ladder = Ladder(), size: int = TOP_ROWS
) -> list[LeaderboardRow]:
    """The board's best ``size`` rows: one query (none without a scope or the system)."""
    if scope is None or not rates(scope, ladder.system):
        return []
    below = provisional_games()
    return [_row(values, below) for values in _rows(ranked(scope, ladder))[:size]]


def every_row(
    scope: RatingScope | None, ladder: Ladder, chunk: int | None = None
) -> Iterator[LeaderboardRow]:
    """The whole board, best first, for an export: one query whose rows are fetched ``chunk``
    at a time (a server-side cursor on PostgreSQL), so memory stays flat and every rank
    comes from the same snapshot."""
    if scope is None or not rates(scope, ladder.system):
        return
    below = provisional_games()
    for values in _rows(ranked(scope, ladder)).iterator(chunk_size=chunk or EXPORT_CHUNK):
        yield _row(values, below)
