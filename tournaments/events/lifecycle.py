"""An event's life: draft → entries open → running ⇄ paused → finished, or cancelled.

* :func:`open_entries` (draft → entries open) draws the event seed and
  publishes its sha256 commitment; nothing about the seed changes after.
* :func:`start` (entries open → running) drops the entries that did not
  check in (when the event asks for check-in, ``check_ins``), checks
  everything a round needs (the format accepts the number of entrants, the
  time control, every entrant can still play), fixes the seed order
  (``seed_order``) and pairs round 1 in the
  same transaction: it either starts with its first games or changes
  nothing and says why.
* :func:`pause` (running → paused): no new round is paired; games already
  running play on. :func:`resume` (paused → running) pairs the next round
  at once if it became due meanwhile.
* :func:`cancel` (from any state but finished or cancelled): running games
  are aborted (the referee leaves aborted games alone, and they are never
  rated), the event seed is revealed.
* Finished: the scheduler finishes the event when the format has no more
  rounds (``rounds.pair_next``).

Every transition locks the tournament row and re-reads its status, so two
organisers clicking at once get one transition and one clear refusal. The
instance passed in is refreshed afterwards.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

import engines
from games.models import Game
from games.signals import games_settled
from tournaments import formats
from tournaments.events import check_ins, seed_order, seeds
from tournaments.events.eligibility import bot_of, engine_label, why_cannot_play
from tournaments.events.errors import EventError
from tournaments.events.history import settings_of
from tournaments.events.locks import lock_tournament
from tournaments.events.roles import require_organiser
from tournaments.events.rounds import (
    PairingError,
    enqueue_pairing_after_commit,
    format_of,
    pair_round,
)
from tournaments.formats import tiebreaks
from tournaments.models import Entrant, Round, Tournament

S = Tournament.Status


def open_entries(tournament: Tournament, *, by: Any = None) -> Tournament:
    """Open entries: draw the secret event seed and publish its commitment."""
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "open its entries")
        if event.status != S.DRAFT:
            raise EventError(
                f"{event.name} is {event.get_status_display()}; entries open only from a draft"
            )
        check_settings(event)
        if not event.seed:  # never redrawn: the commitment may already be known
            event.seed = seeds.new_event_seed()
            event.seed_commitment = seeds.commitment(event.seed)
        event.status = S.ENTRIES_OPEN
        event.status_reason = ""
        event.save(update_fields=["seed", "seed_commitment", "status", "status_reason"])
    tournament.refresh_from_db()
    return tournament


def check_settings(event: Tournament) -> None:
    """Refuse settings no game of the event could be played with (EventError)."""
    try:
        format_of(event)
    except formats.FormatError as exc:
        raise EventError(str(exc)) from None
    try:
        rules = engines.get(event.engine)
    except Exception:
        raise EventError(f"there is no engine {event.engine!r}") from None
    if event.league_id is not None and event.league.engine != event.engine:
        raise EventError(
            f"the league {event.league.name} plays {engine_label(event.league.engine)}; "
            f"its tournaments play the same engine, not {rules.name}"
        )
    if not 1 <= event.min_table_size <= event.table_size:
        raise EventError(
            f"the smallest table ({event.min_table_size}) must be between 1 and the table "
            f"size ({event.table_size})"
        )
    if event.min_table_size < rules.min_players or event.table_size > rules.max_players:
        raise EventError(
            f"{rules.name} is played by {rules.min_players} to {rules.max_players} players; "
            f"tables of {event.min_table_size} to {event.table_size} cannot all be played"
        )
    if event.move_time_ms <= 0:
        raise EventError("the time per move must be more than 0 ms")
    try:
        tiebreaks.check(event.tie_breaks or ())
    except formats.FormatError as exc:
        raise EventError(str(exc)) from None
    if event.seeding not in Tournament.Seeding.values:
        raise EventError(
            f"there is no seeding {event.seeding!r}: choose one of "
            f"{', '.join(Tournament.Seeding.values)}"
        )
    for size in {event.min_table_size, event.table_size}:
        try:
            rules.check_setup(size, event.options)
        except engines.InvalidGame as exc:
            raise EventError(f"the engine options do not work for {size} players: {exc}") from None


def start(tournament: Tournament, *, by: Any = None) -> Round:
    """Start the event: seed order fixed, round 1 paired and its games created; round 1."""
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "start it")
        if event.status != S.ENTRIES_OPEN:
            hint = " (open entries first)" if event.status == S.DRAFT else ""
            raise EventError(
                f"{event.name} is {event.get_status_display()}; only an event with open "
                f"entries can start{hint}"
            )
        check_settings(event)
        check_ins.drop_absentees(event)
        entrants = _startable_entrants(event)
        try:
            format_of(event).check(len(entrants), settings_of(event))
        except formats.FormatError as exc:
            raise EventError(f"{event.name} cannot start: {exc}") from None
        _check_duplicate_capacity(event, entrants)
        seed_order.assign(event, entrants)
        event.status = S.RUNNING
        event.started_at = timezone.now()
        event.status_reason = ""
        event.save(update_fields=["status", "started_at", "status_reason"])
        try:
            first = pair_round(event, 1)
        except PairingError as exc:
            raise EventError(f"{event.name} cannot start: round 1: {exc}") from None
        if first is None:
            raise EventError(
                f"{event.name} cannot start: its format has no round to play with "
                f"{len(entrants)} entrants"
            )
    tournament.refresh_from_db()
    return first


def _startable_entrants(event: Tournament) -> list[Entrant]:
    rows = list(event.entrants.select_related("competitor").order_by("pk"))
    pending = [row.competitor.name for row in rows if row.status == Entrant.Status.PENDING]
    if pending:
        raise EventError(
            f"{event.name} cannot start while entries wait for approval ({', '.join(pending)}): "
            "approve or withdraw them first"
        )
    active = [row for row in rows if row.status == Entrant.Status.ACTIVE]
    unable = [why for row in active if (why := why_cannot_play(event, row.competitor))]
    if unable:
        raise EventError(
            f"{event.name} cannot start: {'; '.join(unable)}. Withdraw them or have them "
            "fixed first"
        )
    return active


def _check_duplicate_capacity(event: Tournament, entrants: list[Entrant]) -> None:
    """A duplicate table plays every rotation at once: each bot must allow that many games."""
    if not event.duplicate:
        return
    short = [
        f"{row.competitor.name} ({bot.max_concurrent_games})"
        for row in entrants
        if (bot := bot_of(row.competitor)) is not None
        and bot.max_concurrent_games < event.table_size
    ]
    if short:
        raise EventError(
            f"{event.name} cannot start: a duplicate table of {event.table_size} plays "
            f"{event.table_size} games at once, more than these bots allow at once: "
            f"{', '.join(short)}"
        )


def pause(tournament: Tournament, *, reason: str = "", by: Any = None) -> Tournament:
    """Pause a running event: no new round is paired until it resumes."""
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "pause it")
        if event.status != S.RUNNING:
            raise EventError(f"{event.name} is {event.get_status_display()}; only a running "
                             "event can be paused")  # fmt: skip
        event.status = S.PAUSED
        event.status_reason = (reason or "").strip() or "paused by the organiser"
        event.save(update_fields=["status", "status_reason"])
    tournament.refresh_from_db()
    return tournament


def resume(tournament: Tournament, *, by: Any = None) -> Tournament:
    """Resume a paused event; the next round is paired at once if it is due."""
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "resume it")
        if event.status != S.PAUSED:
            raise EventError(f"{event.name} is {event.get_status_display()}; only a paused "
                             "event can be resumed")  # fmt: skip
        event.status = S.RUNNING
        event.status_reason = ""
        # A wait for an absent entrant starts again: its grace is for a running event.
        event.pairing_held_since = None
        event.save(update_fields=["status", "status_reason", "pairing_held_since"])
        current = Round.objects.filter(tournament=event, number=event.current_round).first()
        if current is not None and current.status == Round.Status.FINISHED:
            enqueue_pairing_after_commit(event.pk, current.number + 1)
    tournament.refresh_from_db()
    return tournament


def cancel(tournament: Tournament, *, reason: str, by: Any = None) -> Tournament:
    """Cancel the event: unfinished games aborted (never rated), the event seed revealed."""
    reason = (reason or "").strip()
    with transaction.atomic():
        event = lock_tournament(tournament)
        require_organiser(event, by, "cancel it")
        if event.status in (S.FINISHED, S.CANCELLED):
            raise EventError(f"{event.name} is already {event.get_status_display()}")
        if not reason:
            raise EventError(f"say why {event.name} is cancelled; the reason is shown on its page")
        abort_unfinished_games(event)
        event.status = S.CANCELLED
        event.status_reason = reason
        event.finished_at = timezone.now()
        event.save(update_fields=["status", "status_reason", "finished_at"])
    tournament.refresh_from_db()
    return tournament


def abort_unfinished_games(event: Tournament) -> list[int]:
    """Abort the event's scheduled and running games (locked by key, as ``finish`` locks one).

    A game whose finish committed first stays finished (and rated); any
    other is aborted, and the referee refuses every later step of it
    (``advance`` and ``finish`` act only on running games, a move's claim
    matches only a running game).
    """
    unfinished = (Game.Status.SCHEDULED, Game.Status.RUNNING)
    ids = list(
        Game.objects.select_for_update()
        .filter(tournament=event, status__in=unfinished)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    Game.objects.filter(pk__in=ids, status__in=unfinished).update(status=Game.Status.ABORTED)
    # Their duplicate sets may now be public: statistics and page-cache tokens follow.
    games_settled.send(sender=Game, game_ids=ids)
    return ids
