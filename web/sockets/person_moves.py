"""A person's side of a game: who holds which seat, what their socket is shown, their moves.

The play page's consumer (``web/sockets/consumers.py``) only parses frames and
relays; every decision is made here, synchronously, so it can be tested
without a socket. A person's action reaches the game through ``referee.submit``
exactly like a bot's (source ``person``), after the same checks the pull API
makes for a bot (the seat is theirs and to move, the ply is current, the clock
has not run out) and with the time bank charged in the same transaction.

What a socket is shown is built here from the state for *its* seat:
``board_model(state, seat)`` carries only ``state.view(seat)`` (the
spectator's for anyone else), so no frame ever holds another seat's secrets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Competitor, Game, Move, Seat
from games.records import replay
from games.referee import house_bot, statecache
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.dispatch import schedule_advance
from games.referee.turns import GRACE_MS, charge_time_bank
from games.selectors import game_log, spectator
from games.selectors.boards import board_model
from web.sockets import broadcast


class PlayError(Exception):
    """A refused request from a socket; nothing was changed. ``code`` is stable for the page."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Viewer:
    """Who a socket is: the seats its user holds in the game (none for spectators)."""

    game_id: int
    user_id: int | None
    seats: tuple[int, ...]

    @property
    def is_player(self) -> bool:
        return bool(self.seats)


def viewer_for(game_id: int, user: Any) -> Viewer:
    """The viewer of ``game_id`` for the socket's user; raises PlayError if there is no game.

    A seat belongs to a user through a person competitor of theirs: a bot they
    own does not make them its seat's holder (its moves come from the bot).
    """
    if not Game.objects.filter(pk=game_id).exists():
        raise PlayError("no_game", f"there is no game {game_id}")
    if user is None or not getattr(user, "is_authenticated", False):
        return Viewer(game_id, None, ())
    seats = Seat.objects.filter(
        game_id=game_id, competitor__kind=Competitor.Kind.PERSON, competitor__user=user
    ).order_by("position")
    return Viewer(game_id, user.pk, tuple(seats.values_list("position", flat=True)))


def _elapsed_ms(game: Game) -> int:
    """Milliseconds since the current turn began (the previous move was committed)."""
    since = game.last_progress_at or game.started_at or timezone.now()
    return max(0, round((timezone.now() - since).total_seconds() * 1000))


def clocks(game: Game, seats: list[Seat], to_move: list[int]) -> dict[str, Any]:
    """Every seat's remaining time now: the move limit left and the time bank left.

    The seat to move is charged for the time since its turn began (the move
    limit first, then the bank), the others show their full limit and their
    bank. The page counts the running one down from the moment it receives it.
    """
    running = game.status == Game.Status.RUNNING
    elapsed = _elapsed_ms(game) if running else 0
    rows = []
    for seat in seats:
        moving = running and seat.position in to_move and not seat.forfeited
        move_left, bank_left = game.move_time_ms, seat.bank_left_ms
        if moving:
            move_left = max(0, game.move_time_ms - elapsed)
            bank_left = charge_time_bank(seat.bank_left_ms, elapsed, game.move_time_ms)
        rows.append(
            {"seat": seat.position, "moveMs": move_left, "bankMs": bank_left, "running": moving}
        )
    return {"moveTimeMs": game.move_time_ms, "timeBankMs": game.time_bank_ms, "seats": rows}


def frame(viewer: Viewer, log_from: int = 0) -> dict[str, Any]:
    """What the socket is shown now: the board model for its seat, clocks, the game's status.

    ``log`` holds the game log's entries (``game_log.log_entries``) from ply
    ``log_from`` on: the whole history on a socket's first frame, then what the
    socket has not been sent yet.

    A seat holder gets the model of its seat (that to move, if it holds
    several) with its legal actions when it may act; anyone else the
    spectator's. ``ply`` is the number of moves the model's state has seen:
    as many as ``spectator.shown`` lets anyone see (a finished game of an open
    duplicate set stays before its end, for its seats' holders too).
    """
    game = Game.objects.get(pk=viewer.game_id)
    seats = list(Seat.objects.filter(game=game).select_related("competitor").order_by("position"))
    now = spectator.shown(game)
    if now.plies == game.next_ply:
        state = statecache.load_state(game)
    else:
        state = replay.state_at(game, now.plies)
    to_move = list(state.to_move)
    seat = _shown_seat(viewer, to_move)
    forfeited = {s.position for s in seats if s.forfeited}
    substituted = [s for s in seats if s.substituted]
    may_act = game.status == Game.Status.RUNNING and seat is not None and seat not in forfeited
    names = {s.position: s.competitor.name for s in seats}
    model = board_model(state, seat, names, playing=may_act)
    if not may_act:
        model["legal"] = []
    if now.public:  # the final panel ranks as the record does (forfeits last, in words)
        model["ranking"] = spectator.ranking(game)
    return {
        "type": "state",
        "game": game.pk,
        "ply": now.plies,
        "status": game.status,
        "seat": seat,
        "seats": list(viewer.seats),
        "yourTurn": bool(may_act and model["legal"]),
        "forfeited": sorted(forfeited),
        "substituted": [s.position for s in substituted],
        "substitutions": [
            {"seat": s.position, "reason": substitution_reason(s)} for s in substituted
        ],
        "model": model,
        "clocks": clocks(game, seats, to_move),
        "outcome": spectator.outcome_of(game) if now.public else None,
        # Plies the referee played the default for: {"<ply>": "timeout" | "fault"}.
        "defaults": _defaults(game, seats, now.plies),
        "log": game_log.log_entries(game, log_from, viewer.seats),
    }


def _defaults(game: Game, seats: list[Seat], plies: int) -> dict[str, str]:
    """``spectator.default_marks`` of the shown plies, by ply as a string.

    Every default counts a fault on its seat or is played for a forfeited one,
    so a game whose seats show neither has none: no query for the frames of
    nearly every game (a refused act sends one, and the rate limit counts time).
    """
    if not any(seat.fault_count or seat.forfeited for seat in seats):
        return {}
    return {str(p): mark for p, mark in spectator.default_marks(game.pk, 0, plies).items()}


def substitution_reason(seat: Seat) -> str:
    """Why a house bot plays ``seat``: ``"withdrawn"``, ``"timeouts"`` or ``"resigned"``.

    Derived, not stored: a seat whose entrant left the event is ``withdrawn``;
    otherwise a person's only faults are timeouts, a seat is substituted at the
    fault limit or when its person resigns, and a seat that reached the limit
    has nothing left to resign.
    """
    if seat.withdrawn:
        return "withdrawn"
    return "timeouts" if seat.fault_count >= referee.faults_to_forfeit() else "resigned"


def _shown_seat(viewer: Viewer, to_move: list[int]) -> int | None:
    for seat in viewer.seats:
        if seat in to_move:
            return seat
    return viewer.seats[0] if viewer.seats else None


def act(game_id: int, viewer: Viewer, ply: Any, index: Any) -> Move:
    """Play legal action number ``index`` at ``ply`` for the viewer's seat to move.

    Refused (PlayError, nothing written) unless: ``ply`` and ``index`` are
    integers, the viewer holds a seat, the game runs, a house bot does not
    play all of the viewer's seats (``substituted``: whatever the ply, so the
    page learns why its controls are gone), ``ply`` is current, one of the
    viewer's seats is to move and has not forfeited (``substituted`` when a
    house bot plays it, else ``forfeited``), the index is in
    range of its legal actions, and its clock has not run out (then the
    referee is asked to play the default at once).
    """
    if type(ply) is not int or type(index) is not int:
        raise PlayError("bad_frame", "ply and index must be integers")
    if not viewer.is_player:
        raise PlayError("not_a_player", "only a seat's player may act in this game")
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise PlayError("no_game", f"there is no game {game_id}")
    if game.status != Game.Status.RUNNING:
        raise PlayError("not_running", f"the game is {game.status}")
    if not Seat.objects.filter(game=game, position__in=viewer.seats, substituted=False).exists():
        raise PlayError("substituted", "a house bot plays your seat for the rest of the game")
    if ply != game.next_ply:
        raise PlayError(
            "stale_ply", f"ply {ply} is not current: the game is at ply {game.next_ply}"
        )
    state = statecache.load_state(game)
    mine = [s for s in state.to_move if s in viewer.seats]
    if not mine:
        raise PlayError("not_your_turn", f"none of your seats is to move at ply {ply}")
    seat = Seat.objects.get(game=game, position=mine[0])
    if seat.substituted:
        raise PlayError("substituted", "a house bot plays your seat for the rest of the game")
    if seat.forfeited:
        raise PlayError("forfeited", "your seat forfeited; the referee plays for it")
    legal = state.legal_actions(seat.position)
    if not 0 <= index < len(legal):
        raise PlayError(
            "bad_index", f"action {index} does not exist: there are {len(legal)} legal actions"
        )
    elapsed_ms = _elapsed_ms(game)
    allowed_ms = game.move_time_ms + seat.bank_left_ms
    if elapsed_ms > allowed_ms + GRACE_MS:
        schedule_advance(game.pk)  # the clock plays the default now
        raise PlayError(
            "deadline_passed",
            f"the move came {elapsed_ms} ms after the turn began; the limit was {allowed_ms} ms",
        )
    decision = Decision(legal[index], source=Move.Source.PERSON, latency_ms=elapsed_ms)
    try:
        with transaction.atomic():
            move = referee.submit(game.pk, ply, seat.position, decision, state=state)
            Seat.objects.filter(pk=seat.pk).update(
                bank_left_ms=charge_time_bank(seat.bank_left_ms, elapsed_ms, game.move_time_ms)
            )
    except referee.RefereeError as exc:
        raise PlayError(exc.code, str(exc)) from None
    return move


def resign(game_id: int, viewer: Viewer) -> list[int]:
    """The viewer's seats forfeit the game and are substituted: the house bot plays them.

    The person ranks last exactly as for any forfeit; the house bot
    (``house_bot``) plays their seats to the end rather than the engine's
    defaults, so the other players still play a real game. Returns the seats
    that forfeited now; PlayError if none was left to forfeit. Other pages
    are told with a ``game.resigned`` message.
    """
    if not viewer.is_player:
        raise PlayError("not_a_player", "only a seat's player may resign")
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        raise PlayError("not_running", "the game is not running")
    with transaction.atomic():
        rows = Seat.objects.select_for_update().filter(
            game=game, position__in=viewer.seats, forfeited=False
        )
        positions = list(rows.values_list("position", flat=True))
        if not positions:
            raise PlayError("nothing_to_resign", "your seats have already forfeited")
        house_bot.forfeit_seats(Seat.objects.filter(game=game, position__in=positions))
        message = {"type": "game.resigned", "game": game.pk, "seats": positions}
        transaction.on_commit(lambda: broadcast.publish(game.pk, message))
        schedule_advance(game.pk)  # if a resigned seat is to move, the house bot plays now
    return positions
