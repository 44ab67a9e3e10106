"""What the tournament and league pages (and the tournaments API) show: the reads.

Views and serializers only render what is gathered here, so the rules of what
may be shown live in one place:

* a draft tournament is the organiser's business: it is neither listed nor
  readable by id (:func:`public_tournaments`);
* the event seed only through ``tournaments.events.event_seed_revealed``
  (never while the event runs); its commitment from the start;
* a table's result only once it is finished (its results come from the
  event's history, the same finished tables the standings count), and a
  game's own seed is never shown here at all (the game page has the
  spectator's rules).

Every function reads a bounded number of queries whatever the event's size:
entrants in one, rounds with their tables in two, the games of the event in
one (tests count them at two sizes). What the event's pages list
(:func:`first_tables`, :func:`round_page`) reads only the tables it shows, so
a page costs what it shows, not what the event holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Value, When

from games.models import Game, Seat
from games.selectors import listings, spectator
from ratings.models import RatingScope
from tournaments import formats
from tournaments.events import check_ins
from tournaments.events.history import settings_of
from tournaments.formats import standings, tiebreaks
from tournaments.models import Entrant, League, Round, Table, Tournament

Status = Tournament.Status

LISTED_ORDER = (
    Status.RUNNING,
    Status.PAUSED,
    Status.ENTRIES_OPEN,
    Status.FINISHED,
    Status.CANCELLED,
)
"""Public tournaments, in the order the list shows them: what is being played first."""

COUNTED_ENTRANTS = (
    Entrant.Status.ACTIVE,
    Entrant.Status.WITHDRAWN,
    Entrant.Status.DISQUALIFIED,
)
"""Entrants the pages show; one waiting for the organiser's approval is not in yet."""


def public_tournaments() -> QuerySet[Tournament]:
    """Every tournament past its draft, running ones first, with its entrant count."""
    order = Case(
        *(When(status=status, then=Value(index)) for index, status in enumerate(LISTED_ORDER)),
        default=Value(len(LISTED_ORDER)),
        output_field=IntegerField(),
    )
    return (
        Tournament.objects.filter(status__in=LISTED_ORDER)
        .select_related("league")
        .annotate(
            entrant_count=Count("entrants", filter=Q(entrants__status__in=COUNTED_ENTRANTS)),
            listed_order=order,
        )
        .order_by("listed_order", "-started_at", "-created_at", "-id")
    )


def public_tournament(pk: int) -> Tournament | None:
    """Tournament ``pk`` if it is past its draft (with its league), else None: the event page's
    one read before its fragment, without the list's count and ordering."""
    return (
        Tournament.objects.filter(pk=pk, status__in=LISTED_ORDER).select_related("league").first()
    )


# ------------------------------------------------------------------ entrants
@dataclass(frozen=True)
class EntrantView:
    """An entrant as the pages show it: name, seed order, and why it left if it did."""

    id: int
    competitor_id: int
    name: str
    kind: str
    seed_order: int
    status: str
    reason: str

    @property
    def left(self) -> bool:
        """Withdrawn or disqualified: still in the results, no longer paired."""
        return self.status != Entrant.Status.ACTIVE

    @property
    def status_label(self) -> str:
        return Entrant.Status(self.status).label


def entrants_of(tournament: Tournament) -> list[EntrantView]:
    """The tournament's entrants (not those waiting for approval), top seed first; one query."""
    rows = (
        Entrant.objects.filter(tournament=tournament, status__in=COUNTED_ENTRANTS)
        .order_by("seed_order", "id")
        .values_list(
            "id", "competitor_id", "competitor__name", "competitor__kind", "seed_order", "status",
            "reason",
        )
    )  # fmt: skip
    return [EntrantView(*row) for row in rows]  # as tuples: every page of the event reads them all


def entrant_view(row: Entrant) -> EntrantView:
    """One Entrant row (its competitor loaded) as the pages show it."""
    return EntrantView(
        id=row.pk,
        competitor_id=row.competitor_id,
        name=row.competitor.name,
        kind=row.competitor.kind,
        seed_order=row.seed_order,
        status=row.status,
        reason=row.reason,
    )


def unknown_entrant(entrant_id: int) -> EntrantView:
    """Stands in for an id no entrant row has (never expected; the page still renders)."""
    return EntrantView(entrant_id, 0, f"entrant {entrant_id}", "", 0, Entrant.Status.ACTIVE, "")


# ------------------------------------------------------------ rounds, tables
@dataclass(frozen=True)
class TableGame:
    """A game a table plays (several for a duplicate set): a link and its status."""

    id: int
    status: str
    adjudicated: bool = False
    """Aborted, with the organiser's result (``events.adjudication``) counted for its table."""
    forfeited: tuple[int, ...] = ()
    """Competitor ids of the game's forfeited seats (shown once the table is finished)."""
    substituted: tuple[int, ...] = ()
    """Competitor ids of the seats the house bot played to the end (a person's)."""

    @property
    def finished(self) -> bool:
        return self.status == Game.Status.FINISHED


@dataclass(frozen=True)
class TableSeat:
    """An entrant at a table, in seat order; its placing once the table is finished."""

    position: int
    entrant: EntrantView
    rank: int | None
    score: float | None
    points: float | None
    """Placement points earned at this table (``formats.standings.table_points``)."""
    forfeited: bool = False
    """Its seat forfeited in a game of the table (marked once the table is finished)."""
    substituted: bool = False
    """The house bot played its seat to the end in a game of the table (a person who timed
    out or resigned); marked once the table is finished, as the game page marks it."""


@dataclass(frozen=True)
class TableView:
    number: int
    seats: list[TableSeat]
    games: list[TableGame]
    finished: bool

    @property
    def placings(self) -> list[TableSeat]:
        """The seats best first once finished (seat order before)."""
        if not self.finished:
            return self.seats
        return sorted(self.seats, key=lambda seat: (seat.rank or 0, seat.position))

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        if any(game.status == Game.Status.RUNNING for game in self.games):
            return "running"
        if any(game.status == Game.Status.ABORTED for game in self.games):
            return "aborted"
        return "scheduled"


@dataclass(frozen=True)
class RoundView:
    number: int
    status: str
    tables: list[TableView]
    byes: list[EntrantView]
    table_count: int = 0
    """The round's tables in all: ``tables`` may hold only the first of them (a page shows)."""
    absent: tuple[tuple[EntrantView, str], ...] = ()
    """Entrants left out because they could not play (no points), with the reason."""

    @property
    def tables_left_out(self) -> int:
        return self.table_count - len(self.tables)


_Results = dict[tuple[int, tuple[int, ...]], formats.Result]


def _results_of(history: formats.History) -> _Results:
    """The history's finished tables, by (round, seats)."""
    return {(result.round, tuple(result.seats)): result for result in history.results}


def _games_of(games_of_tables: QuerySet[Game]) -> dict[int, list[TableGame]]:
    """The games by table id, oldest first, with their forfeited and substituted seats.

    Two queries: the games, then only their marked seats (few: most seats are neither).
    """
    rows = list(
        games_of_tables.order_by("id").values_list("id", "table_id", "status", "adjudication__id")
    )
    marks: dict[int, tuple[list[int], list[int]]] = {}
    if rows:
        marked = Seat.objects.filter(game_id__in=[row[0] for row in rows]).filter(
            Q(forfeited=True) | Q(substituted=True)
        )
        for game_id, competitor_id, forfeited, substituted in marked.values_list(
            "game_id", "competitor_id", "forfeited", "substituted"
        ):
            lists = marks.setdefault(game_id, ([], []))
            if forfeited:
                lists[0].append(competitor_id)
            if substituted:
                lists[1].append(competitor_id)
    games: dict[int, list[TableGame]] = {}
    for game_id, table_id, status, judged in rows:
        forfeited, substituted = marks.get(game_id, ([], []))
        games.setdefault(table_id, []).append(
            TableGame(
                game_id,
                status,
                adjudicated=judged is not None,
                forfeited=tuple(forfeited),
                substituted=tuple(substituted),
            )
        )
    return games


def _table_view(
    table: Table,
    round_number: int,
    by_id: dict[int, EntrantView],
    games: dict[int, list[TableGame]],
    results: _Results,
) -> TableView:
    """One table, its seats in seat order, its games, and its placings once finished."""
    seats = [int(key) for key in table.seats]
    result = results.get((round_number, tuple(seats)))
    points = standings.table_points(result.ranks) if result else None
    played = games.get(table.pk, [])
    # Marks are public once the table's result is (a duplicate set: when its last game ended).
    forfeited = {c for game in played for c in game.forfeited} if result else set()
    substituted = {c for game in played for c in game.substituted} if result else set()
    views = []
    for position, key in enumerate(seats):
        entrant = by_id.get(key) or unknown_entrant(key)
        views.append(
            TableSeat(
                position=position,
                entrant=entrant,
                rank=result.ranks[position] if result else None,
                score=result.scores[position] if result else None,
                points=points[position] if points else None,
                forfeited=entrant.competitor_id in forfeited,
                substituted=entrant.competitor_id in substituted,
            )
        )
    return TableView(number=table.number, seats=views, games=played, finished=result is not None)


def _round_view(
    round_: Round, tables: list[TableView], by_id: dict[int, EntrantView], table_count: int
) -> RoundView:
    return RoundView(
        number=round_.number,
        status=round_.status,
        tables=tables,
        byes=[by_id.get(int(key)) or unknown_entrant(int(key)) for key in round_.byes],
        table_count=table_count,
        absent=tuple(
            (by_id.get(int(row["entrant"])) or unknown_entrant(int(row["entrant"])), row["reason"])
            for row in round_.absent or ()
        ),
    )


def rounds_of(
    tournament: Tournament, entrants: Sequence[EntrantView], history: formats.History
) -> list[RoundView]:
    """Every round with its tables in table order, seats in seat order, games and results.

    A table's result is the history's (``tournaments.events.history_of``): the
    same finished tables, duplicate sets aggregated, that the standings count.
    Three queries: rounds, their tables, the event's games.
    """
    by_id = {entrant.id: entrant for entrant in entrants}
    rounds = list(
        Round.objects.filter(tournament=tournament).prefetch_related("tables").order_by("number")
    )
    games = _games_of(Game.objects.filter(tournament=tournament, table__isnull=False))
    results = _results_of(history)
    views = []
    for round_ in rounds:
        tables = sorted(round_.tables.all(), key=lambda table: table.number)
        shown = [_table_view(table, round_.number, by_id, games, results) for table in tables]
        views.append(_round_view(round_, shown, by_id, len(tables)))
    return views


def first_tables(
    tournament: Tournament,
    entrants: Sequence[EntrantView],
    history: formats.History,
    limit: int,
) -> list[RoundView]:
    """Every round, newest first, holding together only the first ``limit`` tables.

    The tables are taken in the order a page lists them (the newest round's
    in table order, then the round before), so a page of the event shows what
    is being played and leaves the rest to each round's own pages
    (:func:`round_page`); a round past the limit comes with no table, but
    with its table count. Three queries whatever the event's size: the rounds
    with their counts, the tables shown, their games.
    """
    by_id = {entrant.id: entrant for entrant in entrants}
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables"))
        .order_by("-number")
    )
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("round")
        .order_by("-round__number", "number")[: max(limit, 0)]
    )
    games = _games_of(Game.objects.filter(table__in=[t.pk for t in tables])) if tables else {}
    results = _results_of(history)
    shown: dict[int, list[TableView]] = {}
    for table in tables:
        view = _table_view(table, table.round.number, by_id, games, results)
        shown.setdefault(table.round_id, []).append(view)
    return [
        _round_view(round_, shown.get(round_.pk, []), by_id, round_.table_count)
        for round_ in rounds
    ]


def round_page(
    tournament: Tournament,
    number: int,
    entrants: Sequence[EntrantView],
    history: formats.History,
    page_number: object,
    per_page: int,
) -> tuple[RoundView, Page] | None:
    """One round with one page of its tables (None if the event has no such round).

    ``page_number`` is read leniently, as the leaderboards read theirs (past the
    end: the last page). Four queries: the round, the count, the page's tables,
    their games.
    """
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        return None
    page = Paginator(Table.objects.filter(round=round_).order_by("number"), per_page).get_page(
        page_number
    )
    tables = list(page.object_list)
    by_id = {entrant.id: entrant for entrant in entrants}
    games = _games_of(Game.objects.filter(table__in=[t.pk for t in tables])) if tables else {}
    results = _results_of(history)
    views = [_table_view(table, number, by_id, games, results) for table in tables]
    return _round_view(round_, views, by_id, page.paginator.count), page


# ----------------------------------------------------------------- settings
def total_rounds(tournament: Tournament, entrant_count: int) -> int | None:
    """Rounds the event will have: the organiser's number, else the format's, if it knows."""
    if tournament.rounds:
        return tournament.rounds
    try:
        return formats.get(tournament.format).total_rounds(entrant_count, settings_of(tournament))
    except formats.FormatError:  # too few entrants yet: nothing to say
        return None


def seconds(ms: int) -> str:
    """5000 -> "5 s", 1500 -> "1.5 s", 90000 -> "90 s"."""
    return f"{ms / 1000:g} s"


def dropped_at_start(entrants: Sequence[EntrantView]) -> list[str]:
    """The names of the entrants dropped at the start for not checking in."""
    return [entrant.name for entrant in entrants if entrant.reason == check_ins.REASON]


def settings_in_words(
    tournament: Tournament, entrant_count: int, dropped: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """The settings as (what, plain words) pairs, for people rather than the admin.

    ``dropped`` names the entrants dropped at the start for not checking in
    (:func:`dropped_at_start`), said in the check-in row.
    """
    t = tournament
    tables = f"{t.table_size} players each"
    if t.min_table_size < t.table_size:
        tables += f" (down to {t.min_table_size} when the entrants do not divide evenly)"
    rounds = total_rounds(t, entrant_count)
    if t.format == Tournament.Format.KNOCKOUT:
        rounds_text = (
            f"until the final table; the best {t.advance_per_table} of each table go through"
        )
    elif rounds:
        rounds_text = f"{rounds}" + (" (set by the format)" if not t.rounds else "")
    else:
        rounds_text = "decided by the format once the entrants are known"
    time = f"{seconds(t.move_time_ms)} per move"
    if t.time_bank_ms:
        time += f", plus a time bank of {seconds(t.time_bank_ms)} per player and game"
    if not t.rated:
        rated = "no: the games change no rating"
    elif t.league_id:
        rated = f"yes: every game counts for the ratings, also in the league {t.league.name}"
    else:
        rated = "yes: every game counts for the ratings"
    if t.duplicate:
        duplicate = (
            "yes: every table plays its deal once per seat rotation, with the same dice "
            "and cards, so luck evens out; the table's result adds up the set"
        )
    else:
        duplicate = "no: one game per table"
    rows = [
        ("Game", listings.engine_name(t.engine)),
        ("Format", Tournament.Format(t.format).label),
        ("Tables", tables),
        ("Rounds", rounds_text),
        ("Time control", time),
        ("Rated", rated),
        ("Duplicate", duplicate),
    ]
    if t.format == Tournament.Format.SWISS and t.bye_points is not None:
        rows.append(("Bye", f"{t.bye_points:g} placement points"))
    rows += _pairing_rows(t, dropped)
    if t.options:
        rows.append(("Game options", ", ".join(f"{k} = {v}" for k, v in sorted(t.options.items()))))
    return rows


def _pairing_rows(t: Tournament, dropped: Sequence[str]) -> list[tuple[str, str]]:
    """Seeding, owners, tie-breaks, absences and check-in, in words."""
    if t.allow_same_owner_tables:
        owners = "one owner's entrants may share a table"
    elif t.format == Tournament.Format.ROUND_ROBIN:
        owners = "a round robin meets everyone, one owner's entrants too"
    else:
        owners = "one owner's entrants are kept at different tables wherever possible"
    order = tiebreaks.check(t.tie_breaks or ())
    rows = [
        ("Seeding", Tournament.Seeding(t.seeding).label),
        ("Same owner", owners),
        (
            "Tie-breaks",
            "points, then " + ", then ".join(tiebreaks.LABELS[name] for name in order),
        ),
        (
            "Absence",
            f"an entrant who cannot play (a bot suspended or at its game limit) holds the next "
            f"round {t.absence_grace_s} s, then sits it out with 0 points",
        ),
    ]
    if t.check_in:
        words = "required before the start: who has not checked in is dropped at the start"
        if dropped:
            words = check_ins.dropped_sentence(list(dropped))
        rows.append(("Check-in", words))
    return rows


# ------------------------------------------------------------------ leagues
def first_leagues(limit: int) -> tuple[list[League], bool]:
    """The first ``limit`` leagues by name, and whether there are more (one query)."""
    leagues = list(League.objects.order_by("name")[: limit + 1])
    return leagues[:limit], len(leagues) > limit


def league_scope(league: League) -> RatingScope | None:
    """The league's rating scope, if a rated game has made it yet (reading creates nothing)."""
    return RatingScope.objects.filter(kind=RatingScope.Kind.LEAGUE, league=league).first()


def arena_games(league: League, limit: int = 10) -> list[listings.GameSummary]:
    """The league's newest arena games (games of the league outside its tournaments)."""
    games = (
        listings.games_with_seats()
        .filter(league=league, tournament__isnull=True, listed=True)
        .order_by("-created_at", "-id")
    )
    return [
        listings.GameSummary(game, listings.engine_name(game.engine), spectator.public_seats(game))
        for game in games[:limit]
    ]
