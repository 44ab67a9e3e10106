"""What one game did to its players' ratings, per seat, for the game page's results table.

The numbers are the game's ``RatingChange`` rows, read in one query whatever
the number of seats, scopes and systems (as plain rows: ``game_page_reads``):
the engine's global ladder and, when the game belongs to a league, the league's.
Nothing is recomputed here: the page shows exactly what the ledger recorded, so
it can be checked against the leaderboard. A seat without changes says why in
words ("unrated: ...").

Shown only once the game's record is public (``spectator.is_public``): a
finished game of a duplicate set still being played has changed ratings
already, but its result is still secret to the set's other tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import spectator
from games.models import Game
from ratings.models import RatingScope
from ratings.systems import get_system
from web.games import page_reads as game_page_reads
from web.games.page_reads import ChangeRow

SYSTEM_ORDER = ("elo", "trueskill", "openskill")
SYSTEM_NAMES = {"elo": "Elo", "trueskill": "TrueSkill", "openskill": "OpenSkill"}

WITHDRAWN = "withdrew from the event during the game"
TWO_SEATS = "a competitor held two seats"
NO_CHANGE = "no rating change was recorded"
NOT_RATED = "the game was not rated"


@dataclass(frozen=True)
class SystemChange:
    """One system's before and after for one seat in one scope.

    ``before`` and ``after`` are what a leaderboard sorts by: the Elo rating,
    or TrueSkill's and OpenSkill's conservative score mu - 3 sigma; ``mu`` and
    ``sigma`` (None for Elo) say where the score came from.
    """

    system: str
    before: float
    after: float
    before_mu: float
    after_mu: float
    before_sigma: float | None
    after_sigma: float | None

    @property
    def name(self) -> str:
        return SYSTEM_NAMES.get(self.system, self.system)

    @property
    def delta(self) -> float:
        return self.after - self.before

    @property
    def places(self) -> int:
        """Elo to one decimal, as the leaderboards show it; the Bayesian scores to two."""
        return 1 if self.before_sigma is None else 2

    @property
    def before_text(self) -> str:
        return fixed(self.before, self.places)

    @property
    def after_text(self) -> str:
        return fixed(self.after, self.places)

    @property
    def delta_text(self) -> str:
        return signed(self.delta, self.places)

    @property
    def gained(self) -> bool | None:
        """True up, False down, None when the shown figure did not move."""
        if fixed(abs(self.delta), self.places) == fixed(0.0, self.places):
            return None
        return self.delta > 0

    @property
    def has_sigma(self) -> bool:
        return self.before_sigma is not None and self.after_sigma is not None

    def mu_sigma_texts(self) -> tuple[str, str, str, str]:
        """mu before and after, sigma before and after, for the page's tooltip."""
        return (
            fixed(self.before_mu, 2),
            fixed(self.after_mu, 2),
            fixed(self.before_sigma or 0.0, 2),
            fixed(self.after_sigma or 0.0, 2),
        )


@dataclass(frozen=True)
class ScopeColumn:
    """A rating scope the game counted in: the engine's ladder, or its league's."""

    scope_id: int
    label: str
    league: bool


@dataclass(frozen=True)
class Cell:
    """One seat's changes in one scope, Elo, TrueSkill, OpenSkill in that order."""

    column: ScopeColumn
    changes: list[SystemChange]


@dataclass
class SeatRatings:
    """A seat's row: its public result, and per scope column its changes (or why none)."""

    seat: spectator.PublicSeat
    withdrawn: bool
    cells: list[Cell] = field(default_factory=list)
    unrated: str | None = None


@dataclass
class GameRatings:
    """The results table: one column per scope the game counted in, one row per seat."""

    columns: list[ScopeColumn]
    rows: list[SeatRatings]


def fixed(value: float, places: int) -> str:
    """``value`` with ``places`` decimals; never "-0.0"."""
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def signed(value: float, places: int) -> str:
    """A change with its sign: "+12.3", "-0.41", or "±0.0" when it rounds to nothing."""
    text = fixed(abs(value), places)
    if text == fixed(0.0, places):
        return f"±{text}"
    return f"{'+' if value > 0 else '-'}{text}"


def game_ratings(
    game: Game, seats: list[spectator.PublicSeat], withdrawn: frozenset[int] = frozenset()
) -> GameRatings | None:
    """The results table of ``game`` (None until its record is public): one query.

    ``seats`` are the page's public seats and ``withdrawn`` the positions of
    those that withdrew (``game_page_reads.seat_rows`` reads both).
    """
    if not spectator.is_public(game):
        return None
    changes = game_page_reads.change_rows(game.pk, game.engine, game.league_id)
    columns = _columns(changes)
    index = {column.scope_id: i for i, column in enumerate(columns)}
    by_seat: dict[int, list[Cell]] = {}
    for change in sorted(changes, key=_system_order):
        cells = by_seat.setdefault(change.competitor_id, [Cell(c, []) for c in columns])
        cells[index[change.scope_id]].changes.append(_system_change(change))
    held = [seat.competitor_id for seat in seats]
    rows = []
    for seat in seats:
        left = seat.position in withdrawn
        cells = by_seat.get(seat.competitor_id)
        if cells is not None and not left:
            rows.append(SeatRatings(seat, left, cells))
        else:
            reason = _unrated_reason(game, left, held.count(seat.competitor_id) > 1)
            rows.append(SeatRatings(seat, left, unrated=reason))
    return GameRatings(columns, rows)


def _columns(changes: list[ChangeRow]) -> list[ScopeColumn]:
    """The scopes present, the global ladder first."""
    seen: dict[int, ScopeColumn] = {}
    for change in changes:
        if change.scope_id in seen:
            continue
        if change.scope_kind == RatingScope.Kind.LEAGUE and change.league_name is not None:
            label = f"League: {change.league_name}"
            seen[change.scope_id] = ScopeColumn(change.scope_id, label, True)
        else:
            seen[change.scope_id] = ScopeColumn(change.scope_id, "Global ladder", False)
    return sorted(seen.values(), key=lambda column: (column.league, column.scope_id))


def _system_order(change: ChangeRow) -> tuple[int, str]:
    known = change.system in SYSTEM_ORDER
    return (SYSTEM_ORDER.index(change.system) if known else len(SYSTEM_ORDER), change.system)


def _system_change(change: ChangeRow) -> SystemChange:
    """A change row as leaderboard scores: Elo itself, or mu - 3 sigma through the system."""
    if change.before_sigma is None or change.after_sigma is None:
        before, after = change.before_value, change.after_value
    else:
        score = get_system(change.system).score
        before = score((change.before_value, change.before_sigma))
        after = score((change.after_value, change.after_sigma))
    return SystemChange(
        system=change.system,
        before=before,
        after=after,
        before_mu=change.before_value,
        after_mu=change.after_value,
        before_sigma=change.before_sigma,
        after_sigma=change.after_sigma,
    )


def _unrated_reason(game: Game, withdrawn: bool, two_seats: bool) -> str:
    """Why a seat changed no rating, in words."""
    if not game.rated:
        return game.get_unrated_reason_display() if game.unrated_reason else NOT_RATED
    if withdrawn:
        return WITHDRAWN
    if two_seats:
        return TWO_SEATS
    return NO_CHANGE
