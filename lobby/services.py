"""Everything that changes a lobby table: create, join, leave, add and remove bots, cancel, start.

Each function runs in one transaction and first locks the table's row
(``select_for_update``), so two people reaching for the last seat at once are
served one after the other: the second finds the table full or started.
Every refusal raises :class:`LobbyError` before anything is written (or inside
the transaction, which then rolls back), so a refusal changes nothing.

The rules come from where they already live: who may seat which bot from
``botapi.selectors.seating``, whether a table may be rated from
``games.selectors.rating_rules`` (asked as the seats fill, so ``rated`` is refused
with the rule's reason, never quietly dropped), a bot's limit of games at once
from ``botapi.selectors.capacity`` (at the start), and a person's consent to meet bots
in rated games from ``people.seating``, the one gate every path that seats a person asks.

When the last seat is filled the game starts at once through
``create_game``, seats in table order, created by the host. If it cannot
(a bot is busy), the table stays open and full and ``start_problem`` says why;
anyone seated may try :func:`start` again, and any change of seats clears it.

The lobby keeps moving by itself (issue #32, point 7): when a game with a bot
ends, the full tables waiting for that bot try to start again
(:func:`start_waiting_tables`, queued by the ``game_finished`` receiver and
run on beat as well); a table no person has changed for
``settings.LOBBY_TABLE_IDLE_S`` is closed with a sentence saying so and its
seats are emptied (:func:`close_idle_tables`, on beat).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engines
from botapi.models import Bot
from botapi.selectors import seating
from botapi.selectors.capacity import BotAtCapacity
from games.models import Competitor
from games.selectors import rating_rules
from games.services import GameSetupError, create_game
from people import seating as person_seating
from people.seating import CONSENT_WHERE
from people.services import ensure_person

from . import time_controls
from .models import LobbySeat, LobbyTable

MAX_OPEN_TABLES_PER_HOST = 5
"""Open tables one person may host at once, so the lobby is not flooded."""


class LobbyError(Exception):
    """A refused lobby action: ``code`` for programs and tests, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ------------------------------------------------------------------ helpers
def _signed_in(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise LobbyError("sign_in", "sign in to play at a table")


def _locked(table: LobbyTable | int) -> LobbyTable:
    """The table's row, locked until the transaction ends, read afresh."""
    pk = table.pk if isinstance(table, LobbyTable) else table
    found = LobbyTable.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise LobbyError("no_table", f"there is no table {pk}")
    return found


def _must_be_open(table: LobbyTable) -> None:
    if table.status == LobbyTable.Status.STARTED:
        raise LobbyError("started", "this table's game has already started")
    if table.status == LobbyTable.Status.CANCELLED:
        raise LobbyError("cancelled", "this table was cancelled")


def _must_be_host(table: LobbyTable, user: Any) -> None:
    if table.host_id != user.pk:
        raise LobbyError("not_host", "only the table's host may do that")


def _seats(table: LobbyTable) -> list[LobbySeat]:
    return list(table.seats.select_related("competitor").order_by("position"))


def _rules(engine: str) -> engines.Engine:
    try:
        return engines.get(engine)
    except engines.InvalidGame:
        known = ", ".join(e.name for e in engines.all_engines())
        message = f"there is no game {engine!r}; choose one of {known}"
        raise LobbyError("bad_engine", message) from None


def _bot(user: Any, bot_id: Any, engine: str) -> Bot:
    """The bot ``user`` may seat at a table of ``engine``, or the seating rule's refusal."""
    try:
        bot_id = int(bot_id)
    except (TypeError, ValueError):
        raise LobbyError("seat_refused", f"{bot_id!r} is not a bot's number") from None
    try:
        return seating.bot_for_seat(user, bot_id, engine)
    except seating.SeatRefused as exc:
        raise LobbyError("seat_refused", str(exc)) from None


def _check_consent(rated: bool, competitors: Sequence[Competitor], user: Any | None) -> None:
    """A rated table with a bot needs every seated person's consent to meet bots.

    The rule is ``people.seating``'s (the one gate); here the refusal tells
    ``user`` (who is acting) how to give theirs; another person's setting is
    theirs, so they are not named.
    """
    missing = person_seating.without_consent(competitors, rated=rated)
    if not missing:
        return
    if user is not None and any(c.user_id == user.pk for c in missing):
        raise LobbyError(
            "consent_needed",
            "a rated table with a bot needs your consent to play bots in rated games, "
            f"which you have not given; {CONSENT_WHERE}, or play an unrated table",
        )
    raise LobbyError(
        "consent_needed",
        "a person at this rated table has not agreed to play bots in rated games, so no bot "
        "can join it; they can change that on their profile page (/me/)",
    )


def _check_rated(table_rated: bool, competitors: Sequence[Competitor], host: Any) -> None:
    """``rated`` is refused, with the rule's reason, when the rating rules forbid these seats."""
    if not table_rated:
        return
    forced = rating_rules.forced_reasons(
        rating_rules.holders_of_competitors(competitors), creator_id=host.pk
    )
    if forced:
        _reason, refusal = forced[0]
        why = refusal.split("; set rated", 1)[0]  # the API's advice does not fit a page
        raise LobbyError("rated_refused", f"{why}; this table is rated, so that seat is refused")


def _taken(seats: Sequence[LobbySeat]) -> list[Competitor]:
    return [seat.competitor for seat in seats if seat.competitor is not None]


# ------------------------------------------------------------------ creating
@transaction.atomic
def create_table(
    user: Any,
    engine: str,
    num_players: int,
    time_control: str,
    rated: bool,
    seats: Sequence[int | None] = (),
) -> LobbyTable:
    """Open a table hosted by ``user``, who takes seat 0 as their person.

    ``seats`` are the other seats in order: None leaves a seat open for a
    person to join, a number seats that bot (checked like every seat). A
    table whose seats are all filled here starts at once.
    """
    _signed_in(user)
    rules = _rules(engine)
    try:
        num_players = int(num_players)
    except (TypeError, ValueError):
        raise LobbyError("bad_players", "give the number of players") from None
    if not rules.min_players <= num_players <= rules.max_players:
        raise LobbyError(
            "bad_players",
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
            f"not {num_players}",
        )
    control = time_controls.get(time_control)
    if control is None:
        names = ", ".join(c.name for c in time_controls.TIME_CONTROLS)
        raise LobbyError("bad_time_control", f"choose a time control: {names}")
    if len(seats) != num_players - 1:
        raise LobbyError(
            "bad_seats", f"say for each of the other {num_players - 1} seats who sits there"
        )
    open_tables = LobbyTable.objects.filter(host=user, status=LobbyTable.Status.OPEN).count()
    if open_tables >= MAX_OPEN_TABLES_PER_HOST:
        raise LobbyError(
            "too_many_tables",
            f"you already host {open_tables} open tables; start or cancel one first",
        )
    host = ensure_person(user).competitor
    competitors: list[Competitor | None] = [host]
    for position, bot_id in enumerate(seats, start=1):
        if bot_id is None:
            competitors.append(None)
            continue
        try:
            bot = _bot(user, bot_id, engine)
        except LobbyError as exc:
            raise LobbyError(exc.code, f"seat {position + 1}: {exc.message}") from None
        if bot.competitor in competitors:
            raise LobbyError("bot_twice", f"{bot.competitor.name} can take only one seat")
        competitors.append(bot.competitor)
    present = [c for c in competitors if c is not None]
    rated = bool(rated)
    _check_consent(rated, present, user)
    _check_rated(rated, present, user)
    table = LobbyTable.objects.create(
        host=user,
        engine=engine,
        num_players=num_players,
        time_control=control.key,
        move_time_ms=control.move_time_ms,
        time_bank_ms=control.time_bank_ms,
        rated=rated,
    )
    LobbySeat.objects.bulk_create(
        [
            LobbySeat(table=table, position=position, competitor=competitor, added_by=user)
            if competitor is not None
            else LobbySeat(table=table, position=position)
            for position, competitor in enumerate(competitors)
        ]
    )
    _start_if_full(table)
    return table


# ------------------------------------------------------------------ people
@transaction.atomic
def join(table: LobbyTable | int, user: Any) -> LobbyTable:
    """Seat ``user``'s person in the first open seat; the table starts if that was the last."""
    _signed_in(user)
    table = _locked(table)
    _must_be_open(table)
    person = ensure_person(user)
    seats = _seats(table)
    if any(seat.competitor_id == person.competitor_id for seat in seats):
        raise LobbyError("already_seated", "you already have a seat at this table")
    empty = [seat for seat in seats if seat.is_empty]
    if not empty:
        raise LobbyError("table_full", "this table is full")
    present = [*_taken(seats), person.competitor]
    _check_consent(table.rated, present, user)
    _check_rated(table.rated, present, table.host)
    seat = empty[0]
    seat.competitor, seat.added_by = person.competitor, user
    seat.save(update_fields=["competitor", "added_by"])
    _seats_changed(table)
    return table


@transaction.atomic
def leave(table: LobbyTable | int, user: Any) -> LobbyTable:
    """Give up ``user``'s seat before the game starts; the host leaving cancels the table."""
    _signed_in(user)
    table = _locked(table)
    if table.status == LobbyTable.Status.STARTED:
        raise LobbyError("started", "the game has started: leave it by resigning on the play page")
    _must_be_open(table)
    if table.host_id == user.pk:
        return _cancel(table)
    seat = table.seats.filter(
        competitor__user=user, competitor__kind=Competitor.Kind.PERSON
    ).first()
    if seat is None:
        raise LobbyError("not_seated", "you have no seat at this table")
    seat.competitor, seat.added_by = None, None
    seat.save(update_fields=["competitor", "added_by"])
    _seats_changed(table)
    return table


# ------------------------------------------------------------------ the host
@transaction.atomic
def add_bot(
    table: LobbyTable | int, user: Any, bot_id: Any, position: int | None = None
) -> LobbyTable:
    """The host seats a bot in an open seat (``position``, or the first); full tables start."""
    _signed_in(user)
    table = _locked(table)
    _must_be_open(table)
    _must_be_host(table, user)
    seats = _seats(table)
    if position is None:
        empty = [seat for seat in seats if seat.is_empty]
        if not empty:
            raise LobbyError("table_full", "this table is full")
        seat = empty[0]
    else:
        seat = next((s for s in seats if s.position == _int(position)), None)
        if seat is None:
            raise LobbyError("no_seat", f"this table has no seat {position}")
        if not seat.is_empty:
            raise LobbyError("seat_taken", f"seat {seat.position + 1} is taken")
    bot = _bot(user, bot_id, table.engine)
    if any(s.competitor_id == bot.competitor_id for s in seats):
        raise LobbyError("bot_twice", f"{bot.competitor.name} already has a seat at this table")
    present = [*_taken(seats), bot.competitor]
    _check_consent(table.rated, present, user)
    _check_rated(table.rated, present, user)
    seat.competitor, seat.added_by = bot.competitor, user
    seat.save(update_fields=["competitor", "added_by"])
    _seats_changed(table)
    return table


@transaction.atomic
def remove_seat(table: LobbyTable | int, user: Any, position: Any) -> LobbyTable:
    """The host takes a bot off a seat, which is then open for a person again."""
    _signed_in(user)
    table = _locked(table)
    _must_be_open(table)
    _must_be_host(table, user)
    seat = table.seats.select_related("competitor").filter(position=_int(position)).first()
    if seat is None:
        raise LobbyError("no_seat", f"this table has no seat {position}")
    if seat.competitor is None or seat.competitor.kind != Competitor.Kind.BOT:
        raise LobbyError(
            "not_a_bot", "only a bot's seat can be freed by the host; a person leaves by themselves"
        )
    seat.competitor, seat.added_by = None, None
    seat.save(update_fields=["competitor", "added_by"])
    _seats_changed(table)
    return table


@transaction.atomic
def cancel(table: LobbyTable | int, user: Any) -> LobbyTable:
    """The host closes an open table; nobody can join it any more."""
    _signed_in(user)
    table = _locked(table)
    _must_be_open(table)
    _must_be_host(table, user)
    return _cancel(table)


def _cancel(table: LobbyTable, reason: str = "") -> LobbyTable:
    table.status = LobbyTable.Status.CANCELLED
    table.ended_at = timezone.now()
    table.start_problem = ""
    table.closed_reason = reason
    table.save(update_fields=["status", "ended_at", "start_problem", "closed_reason"])
    return table


# ------------------------------------------------------------------ starting
@transaction.atomic
def start(table: LobbyTable | int, user: Any) -> LobbyTable:
    """Try again to start a full table whose start failed; for anyone seated or the host."""
    _signed_in(user)
    table = _locked(table)
    _must_be_open(table)
    seats = _seats(table)
    seated = any(s.competitor and s.competitor.user_id == user.pk for s in seats)
    if table.host_id != user.pk and not seated:
        raise LobbyError("not_seated", "only the host or a person at the table may start it")
    if any(seat.is_empty for seat in seats):
        raise LobbyError("not_full", "the table starts by itself when every seat is filled")
    problem = _try_start(table, seats)
    if problem:
        raise LobbyError("cannot_start", problem)
    return table


# ------------------------------------------------------------------ upkeep
def start_waiting_tables(competitor_ids: Sequence[int] | None = None) -> list[int]:
    """Start the open full tables that could not start (``start_problem``); the ids started.

    ``competitor_ids``: only tables with one of them seated (the bots of a game
    that just ended); None: every waiting table (beat's retry, should a
    receiver's task be lost). Each table in its own transaction under its lock;
    one that still cannot start keeps its (renewed) problem, and is not touched:
    waiting is not a person's change.
    """
    waiting = LobbyTable.objects.filter(status=LobbyTable.Status.OPEN).exclude(start_problem="")
    if competitor_ids is not None:
        waiting = waiting.filter(seats__competitor_id__in=list(competitor_ids))
    started = []
    for pk in waiting.values_list("pk", flat=True).distinct().order_by("pk"):
        with transaction.atomic():
            table = LobbyTable.objects.select_for_update().filter(pk=pk).first()
            if table is None or not table.is_open or not table.start_problem:
                continue
            seats = _seats(table)
            if any(seat.is_empty for seat in seats):
                continue
            problem = _try_start(table, seats)
            if problem:
                table.start_problem = problem[:_START_PROBLEM_MAX]
                table.save(update_fields=["start_problem"])
            else:
                started.append(pk)
    return started


def idle_sentence(idle_s: int) -> str:
    """The sentence a table closed for idleness shows, its seats free again."""
    minutes = max(1, round(idle_s / 60))
    return (
        f"Closed by the lobby after {minutes} minutes without a change at the table. "
        "Its seats are free again; open a new table to play."
    )


def close_idle_tables(now: datetime | None = None) -> list[int]:
    """Close every open table no person changed for ``LOBBY_TABLE_IDLE_S``; the ids closed.

    The table is cancelled with :func:`idle_sentence` and every seat emptied,
    so a bot seated there is free for other tables and no one holds it.
    A table touched meanwhile (checked again under its lock) stays open.
    """
    idle_s = settings.LOBBY_TABLE_IDLE_S
    cutoff = (now or timezone.now()) - timedelta(seconds=idle_s)
    stale = LobbyTable.objects.filter(status=LobbyTable.Status.OPEN, touched_at__lt=cutoff)
    closed = []
    for pk in stale.values_list("pk", flat=True).order_by("pk"):
        with transaction.atomic():
            table = LobbyTable.objects.select_for_update().filter(pk=pk).first()
            if table is None or not table.is_open or table.touched_at >= cutoff:
                continue
            _cancel(table, reason=idle_sentence(idle_s))
            table.seats.update(competitor=None, added_by=None)
            closed.append(pk)
    return closed


def _seats_changed(table: LobbyTable) -> None:
    """Seats moved: an old start problem no longer holds; a full table starts."""
    table.start_problem = ""
    table.touched_at = timezone.now()
    table.save(update_fields=["start_problem", "touched_at"])
    _start_if_full(table)


def _start_if_full(table: LobbyTable) -> None:
    seats = _seats(table)
    if any(seat.is_empty for seat in seats):
        return
    problem = _try_start(table, seats)
    if problem:
        table.start_problem = problem[:_START_PROBLEM_MAX]
        table.save(update_fields=["start_problem"])


def _try_start(table: LobbyTable, seats: Sequence[LobbySeat]) -> str:
    """Create the table's game; "" when it started, else why not (nothing written then)."""
    competitors = [seat.competitor for seat in seats]
    try:
        _check_consent(table.rated, competitors, None)
    except LobbyError as exc:
        return f"the game cannot start: {exc.message}"
    try:
        with transaction.atomic():  # a savepoint: a refused start leaves the seats as they are
            game = create_game(
                table.engine,
                competitors,
                rated=table.rated,
                move_time_ms=table.move_time_ms,
                time_bank_ms=table.time_bank_ms,
                created_by=table.host,
            )
    except BotAtCapacity as exc:
        return (
            f"the game cannot start yet, {exc.lead}: {exc}. "
            "It starts by itself once the bot is free, or the host can seat another bot"
        )
    except GameSetupError as exc:
        return f"the game cannot start: {exc}"
    table.game = game
    table.status = LobbyTable.Status.STARTED
    table.started_at = game.started_at
    table.start_problem = ""
    table.save(update_fields=["game", "status", "started_at", "start_problem"])
    return ""


_START_PROBLEM_MAX = LobbyTable._meta.get_field("start_problem").max_length


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise LobbyError("no_seat", f"{value!r} is not a seat number") from None
