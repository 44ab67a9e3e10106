"""What the lobby's pages and JSON show: tables with their seats, a person's games, bot choices.

Reads only, each in a fixed number of queries whatever the number of tables
(seats are prefetched), so the lobby page costs the same with 3 tables or 300.
Names shown are the competitors' (``owner/bot`` for a bot, the username for a
person); nothing private about a bot or a person is read here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.urls import reverse

import engines
from botapi.models import Bot
from botapi.selectors import capacity, seating
from games.models import Competitor, Game, Seat
from games.selectors import listings, spectator
from lobby import time_controls
from lobby.models import LobbySeat, LobbyTable

OPEN_TABLES_SHOWN = 50


@dataclass(frozen=True)
class SeatView:
    position: int
    name: str  # "" for an open seat
    kind: str  # "person", "bot" or "open"
    is_you: bool


@dataclass(frozen=True)
class TableView:
    """One table as the pages and the JSON show it."""

    table: LobbyTable
    engine_name: str
    time_control: str
    time_name: str
    time_detail: str
    host_name: str
    seats: list[SeatView]
    you_seated: bool
    you_host: bool

    @property
    def taken(self) -> int:
        return sum(seat.kind != "open" for seat in self.seats)

    @property
    def total(self) -> int:
        return len(self.seats)

    @property
    def url(self) -> str:
        return reverse("lobby:table", args=[self.table.pk])

    @property
    def play_url(self) -> str | None:
        if self.table.game_id is None:
            return None
        return reverse("tournaments:play", args=[self.table.game_id])

    @property
    def can_join(self) -> bool:
        return self.table.is_open and not self.you_seated and self.taken < self.total


def _tables() -> QuerySet[LobbyTable]:
    seats = LobbySeat.objects.select_related("competitor").order_by("position")
    return LobbyTable.objects.select_related("host").prefetch_related(Prefetch("seats", seats))


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def view_of(table: LobbyTable, user: Any) -> TableView:
    """``table`` (with its seats prefetched or not) seen by ``user``."""
    uid = _user_id(user)
    seats = []
    for seat in table.seats.all():
        competitor = seat.competitor
        if competitor is None:
            seats.append(SeatView(seat.position, "", "open", False))
            continue
        you = uid is not None and competitor.kind == Competitor.Kind.PERSON
        you = you and competitor.user_id == uid
        seats.append(SeatView(seat.position, competitor.name, competitor.kind, you))
    control = time_controls.get(table.time_control)
    return TableView(
        table=table,
        engine_name=listings.engine_name(table.engine),
        time_control=control.label if control else table.time_control,
        time_name=control.name if control else table.time_control,
        time_detail=control.detail if control else "",
        host_name=table.host.get_username(),
        seats=seats,
        you_seated=any(seat.is_you for seat in seats),
        you_host=uid is not None and table.host_id == uid,
    )


def table_of(pk: int, user: Any) -> TableView | None:
    table = _tables().filter(pk=pk).first()
    return view_of(table, user) if table is not None else None


def _yours(uid: int) -> Q:
    return Q(host_id=uid) | Q(
        seats__competitor__user_id=uid, seats__competitor__kind=Competitor.Kind.PERSON
    )


def open_tables(user: Any, limit: int = OPEN_TABLES_SHOWN) -> list[TableView]:
    """The newest open tables, but for ``user``'s own (:func:`your_open_tables` lists those)."""
    tables = _tables().filter(status=LobbyTable.Status.OPEN)
    uid = _user_id(user)
    if uid is not None:
        tables = tables.exclude(pk__in=LobbyTable.objects.filter(_yours(uid)).values("pk"))
    tables = tables.order_by("-created_at", "-id")
    return [view_of(table, user) for table in tables[:limit]]


def your_open_tables(user: Any) -> list[TableView]:
    """Open tables ``user`` hosts or sits at."""
    uid = _user_id(user)
    if uid is None:
        return []
    tables = (
        _tables()
        .filter(_yours(uid), status=LobbyTable.Status.OPEN)
        .distinct()
        .order_by("-created_at", "-id")
    )
    return [view_of(table, user) for table in tables]


def your_running_games(user: Any) -> list[listings.GameSummary]:
    """Running games where ``user`` sits as a person, newest first (each links to its play page)."""
    uid = _user_id(user)
    if uid is None:
        return []

    games = (
        listings.games_with_seats()
        .filter(
            status=Game.Status.RUNNING,
            seats__competitor__user_id=uid,
            seats__competitor__kind=Competitor.Kind.PERSON,
        )
        .distinct()
        .order_by("-created_at", "-id")
    )
    return [
        listings.GameSummary(game, listings.engine_name(game.engine), spectator.public_seats(game))
        for game in games[:20]
    ]


LIVE_GAMES_SHOWN = 10


def live_games(user: Any, limit: int = LIVE_GAMES_SHOWN) -> list[listings.GameSummary]:
    """Running games started from a lobby table, newest first, to watch (not the visitor's own).

    Only what any spectator may see: the seats' names (``spectator.public_seats``);
    the visitor's own games are listed apart, with a Play link.
    """
    games = (
        listings.games_with_seats()
        .filter(status=Game.Status.RUNNING, listed=True, lobby_table__isnull=False)
        .order_by("-created_at", "-id")
    )
    uid = _user_id(user)
    if uid is not None:
        mine = Seat.objects.filter(competitor__user_id=uid, competitor__kind=Competitor.Kind.PERSON)
        games = games.exclude(pk__in=mine.values("game_id"))
    return [
        listings.GameSummary(game, listings.engine_name(game.engine), spectator.public_seats(game))
        for game in games[:limit]
    ]


# ------------------------------------------------------------------ the form's choices
@dataclass(frozen=True)
class EngineChoice:
    slug: str
    name: str
    min_players: int
    max_players: int


def engine_choices() -> list[EngineChoice]:
    return [
        EngineChoice(e.slug, e.name, e.min_players, e.max_players) for e in engines.all_engines()
    ]


@dataclass(frozen=True)
class BotChoice:
    """A bot the user may seat: its id, ``owner/name``, the engines it plays, and its group."""

    id: int
    name: str
    engines: list[str] = field(default_factory=list)
    group: str = ""
    busy: str = ""
    """Why the bot cannot start one more game for this user now ("" if it can): it is shown
    marked and cannot be chosen, since a table with it would wait (issue #32, point 7)."""


GROUPS = ("Example bots", "Your bots", "Bots open to challenges", "House anchors (fixed strength)")


def bot_choices(user: Any) -> list[BotChoice]:
    """Every active bot ``user`` may seat: the house anchors and example bots first, then
    theirs, then open ones.

    Another owner's bot that plays only in tournaments is left out (it would be
    refused), and so is every private bot but the user's own.
    """
    uid = _user_id(user)
    if uid is None:
        return []
    bots = (
        seating.seatable_bots(user)
        .filter(status=Bot.Status.ACTIVE)
        .filter(Q(owner_id=uid) | seating.challengeable())
    )
    house = seating.example_bots_username()
    bots = list(bots)
    held = capacity.held_games(bot.competitor_id for bot in bots)
    rows = []
    for bot in bots:
        if bot.anchor:  # the house anchors first: known strengths (botapi.selectors.anchors)
            group = -1
        elif bot.owner.get_username() == house:
            group = 0
        elif bot.owner_id == uid:
            group = 1
        else:
            group = 2
        rows.append((group, bot.competitor.name.lower(), bot))
    rows.sort(key=lambda row: (row[0], row[1], row[2].pk))
    return [
        BotChoice(
            bot.pk, bot.competitor.name, list(bot.engines), GROUPS[group],
            busy=_busy(bot, held[bot.competitor_id], uid),
        )
        for group, _name, bot in rows
    ]  # fmt: skip


def _busy(bot: Bot, games: list[capacity.HeldGame], user_id: int) -> str:
    """Why ``bot`` would not start a new table's game for ``user_id`` now, in a few words.

    The rules ``create_game`` applies (``botapi.selectors.capacity``): the bot's
    limit of games at once, and a user's fair share of another owner's bot.
    """
    if len(capacity.counted_games(bot, games, capacity.CASUAL)) >= bot.max_concurrent_games:
        limit = bot.max_concurrent_games
        return f"busy: at its limit of {limit} game{'s' if limit != 1 else ''} at once"
    refusal = capacity.share_refusal(bot, games, user_id)
    if refusal is None:
        return ""
    if refusal.startswith("you already play"):
        return "busy for you: you already play your share of its games"
    return "busy: its free games are taken, the last one kept for its owner"


def table_json(view: TableView) -> dict[str, Any]:
    """The JSON form of a table (no HTML): what a script needs to follow it."""
    table = view.table
    return {
        "id": table.pk,
        "url": view.url,
        "status": table.status,
        "engine": table.engine,
        "engineName": view.engine_name,
        "host": view.host_name,
        "timeControl": view.time_control,
        "moveTimeMs": table.move_time_ms,
        "timeBankMs": table.time_bank_ms,
        "rated": table.rated,
        "taken": view.taken,
        "total": view.total,
        "seats": [
            {"position": s.position, "name": s.name, "kind": s.kind, "you": s.is_you}
            for s in view.seats
        ],
        "startProblem": table.start_problem,
        "closedReason": table.closed_reason,
        "game": table.game_id,
        "playUrl": view.play_url,
    }
