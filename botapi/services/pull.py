"""Pull mode: a bot that cannot be reached polls for its turns and posts its moves.

The referee never calls a pull bot (``botapi.referee.ask_bot`` answers None
and the seat waits, like a person). Instead the bot

* long-polls ``GET /api/v1/bots/me/turns?wait=25``: :func:`pending_turns`
  gives the decisions it owes now, each as the very ``act`` request a push
  bot would get (:func:`botapi.protocol.act_request_for_state`); when there
  is none the poll waits (:mod:`botapi.pullwait`, holding no database
  connection) until the referee signals a turn, or answers ``[]`` when
  ``wait`` seconds are over;
* answers one with ``POST /api/v1/games/{id}/moves``: :func:`submit_move`
  checks it and hands it to ``games.referee.steps.submit``, the one door
  every action goes through.

Nothing is stored for a pending turn: it is derived from the games
themselves (a running game where one of the bot's seats is to move, and not
forfeited). A waiting poll looks again (one cheap query: running games of
the bot and their ``next_ply``) only when woken, and rebuilds a game's state
only when its ``next_ply`` changed.

Deadlines are the referee's: a turn is due ``move_time_ms`` plus the seat's
time bank after it became available (``Game.last_progress_at``); the clock
(``games.referee.steps.advance``) plays the default with a ``timeout``
fault after that plus ``players.GRACE_MS``, exactly as for a person. A move
posted too late is refused (409 ``deadline_passed``) and the clock is run at
once. An illegal move is refused (400 ``illegal_action`` with the engine's
reason) and changes nothing: the bot may still answer in time.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from botapi import protocol
from botapi.client import excerpt
from botapi.models import Bot
from games.models import Game, Move, Seat
from games.referee import statecache
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.dispatch import schedule_advance
from games.referee.turns import GRACE_MS, charge_time_bank, decision_deadline_ms

MAX_WAIT_SECONDS = 30
"""Longest long-poll; proxies commonly cut idle requests at 60 s."""
REPLY_EXCERPT_CHARS = 2000


class PullError(Exception):
    """A refused pull request: ``status`` is the HTTP status, ``code`` a stable name.

    ``retry_after_s`` (with 429) says when asking again may succeed.
    """

    def __init__(
        self, status: int, code: str, message: str, *, retry_after_s: int | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_s = retry_after_s


@dataclass(frozen=True, slots=True)
class MoveAnswer:
    """What a bot posted for one turn (exactly one of ``action`` and ``action_index``)."""

    ply: int
    action: dict[str, Any] | None = None
    action_index: int | None = None
    request_id: str | None = None


def request_id_for(game_id: int, ply: int) -> str:
    """The request id of a pulled turn: stable, so a bot may echo it in its move."""
    return f"game-{game_id}-ply-{ply}"


def check_can_pull(bot: Bot) -> None:
    """Only an active bot in pull mode may poll or move (409 otherwise, with the reason)."""
    if bot.mode != Bot.Mode.PULL:
        raise PullError(409, "not_pull_mode", "this bot is in push mode: the referee calls it")
    if not bot.is_active:
        raise PullError(
            409,
            "bot_inactive",
            f"the bot is {bot.status} ({bot.status_reason or 'no reason given'}); "
            "its seats get default moves until its owner reactivates it",
        )


# ------------------------------------------------------------------ turns
def _running_seats(bot: Bot) -> dict[tuple[int, int], list[int]]:
    """``{(game id, next_ply): [own positions not forfeited]}`` for the bot's running games."""
    rows = Seat.objects.filter(
        competitor_id=bot.competitor_id, game__status=Game.Status.RUNNING, forfeited=False
    ).values_list("game_id", "game__next_ply", "position")
    seats: dict[tuple[int, int], list[int]] = {}
    for game_id, next_ply, position in rows:
        seats.setdefault((game_id, next_ply), []).append(position)
    return seats


def _seat_to_move(game: Game, positions: list[int]) -> tuple[int, Any] | None:
    """The bot's position that is to move in ``game`` and the state, or None."""
    state = statecache.load_state(game)
    to_move = state.to_move
    if to_move and to_move[0] in positions:
        return to_move[0], state
    return None


def _turn_request(game: Game, seat: Seat, state: Any) -> dict[str, Any]:
    """The act request for ``seat`` now; marks the events it carries as sent."""
    elapsed_ms = _elapsed_ms(game)
    remaining = decision_deadline_ms(game, seat) - elapsed_ms
    request = protocol.act_request_for_state(
        state,
        game_id=game.pk,
        seat=seat.position,
        ply=game.next_ply,
        deadline_ms=max(1, remaining),
        time_bank_ms=seat.bank_left_ms if game.time_bank_ms else None,
        events=state.events[seat.events_sent :],
        request_id=request_id_for(game.pk, game.next_ply),
    )
    Seat.objects.filter(pk=seat.pk).update(events_sent=len(state.events))
    return request


def pending_turns(bot: Bot, *, skip: set[tuple[int, int]] | None = None) -> list[dict[str, Any]]:
    """Act requests for every decision ``bot`` owes now, oldest game first.

    ``skip`` holds ``(game id, next_ply)`` pairs already found not to be the
    bot's turn; pairs looked at are added to it, so a waiting loop rebuilds
    a game's state only after that game moved.
    """
    turns = []
    for (game_id, next_ply), positions in sorted(_running_seats(bot).items()):
        if skip is not None and (game_id, next_ply) in skip:
            continue
        game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
        if game is None or game.next_ply != next_ply:
            continue  # moved since the query; the next round sees it
        found = _seat_to_move(game, positions)
        if found is None:
            if skip is not None:
                skip.add((game_id, next_ply))
            continue
        position, state = found
        seat = Seat.objects.get(game=game, position=position)
        turns.append(_turn_request(game, seat, state))
    return turns


# ------------------------------------------------------------------ moves
def _elapsed_ms(game: Game) -> int:
    """Milliseconds since the current turn became available (the previous move)."""
    since = game.last_progress_at or game.started_at or timezone.now()
    return max(0, round((timezone.now() - since).total_seconds() * 1000))


def _chosen_action(answer: MoveAnswer, legal: list[dict[str, Any]], explain: Any) -> dict:
    """The referee's own copy of the chosen legal action, or a 400 saying why not."""
    if answer.action_index is not None:
        if not 0 <= answer.action_index < len(legal):
            raise PullError(
                400,
                "illegal_action",
                f"action_index {answer.action_index} is out of range: there are {len(legal)} "
                f"legal actions (0..{len(legal) - 1})",
            )
        return legal[answer.action_index]
    for candidate in legal:
        if protocol.json_equal(candidate, answer.action):
            return candidate
    reason = protocol.explained(explain, answer.action)
    shown = json.dumps(answer.action, ensure_ascii=False)[:300]
    raise PullError(
        400, "illegal_action", reason or f"action {shown} is not among the legal actions"
    )


def submit_move(bot: Bot, game_id: int, answer: MoveAnswer) -> Move:
    """Play ``answer`` for the bot's seat that is to move in the game; the recorded move.

    Raises :class:`PullError`: 404 ``not_found`` (no such game, or the bot
    has no seat in it), 409 ``not_running``, ``stale_ply``,
    ``not_your_turn``, ``forfeited`` or ``deadline_passed``, 400
    ``illegal_action`` or ``wrong_request_id``. A refused move changes nothing.
    """
    check_can_pull(bot)
    seats = {s.position: s for s in Seat.objects.filter(game_id=game_id, competitor=bot.competitor)}
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not seats:
        raise PullError(404, "not_found", f"no game {game_id} with a seat of this bot")
    if answer.request_id is not None and answer.request_id != request_id_for(game.pk, answer.ply):
        raise PullError(
            400,
            "wrong_request_id",
            f"request_id {answer.request_id[:80]!r} is not the one of ply {answer.ply} "
            f"({request_id_for(game.pk, answer.ply)!r})",
        )
    if game.status != Game.Status.RUNNING:
        raise PullError(409, "not_running", f"game {game_id} is {game.status}")
    if answer.ply != game.next_ply:
        raise PullError(
            409,
            "stale_ply",
            f"ply {answer.ply} is not current: game {game_id} is at ply {game.next_ply}",
        )
    state = statecache.load_state(game)
    to_move = state.to_move
    if not to_move or to_move[0] not in seats:
        raise PullError(
            409, "not_your_turn", f"none of this bot's seats is to move at ply {answer.ply}"
        )
    seat = seats[to_move[0]]
    if seat.forfeited:
        raise PullError(409, "forfeited", "this seat forfeited the game; the referee plays for it")
    legal = state.legal_actions(seat.position)
    action = _chosen_action(answer, legal, lambda a: state.explain_illegal(seat.position, a, legal))
    elapsed_ms = _elapsed_ms(game)
    allowed_ms = decision_deadline_ms(game, seat)
    if elapsed_ms > allowed_ms + GRACE_MS:
        schedule_advance(game.pk)  # the clock plays the default now
        raise PullError(
            409,
            "deadline_passed",
            f"the move came {elapsed_ms} ms after the turn began; the limit was {allowed_ms} ms",
        )
    reply = {k: v for k, v in asdict(answer).items() if v is not None}
    decision = Decision(
        action,
        source=Move.Source.BOT,
        latency_ms=elapsed_ms,
        request_excerpt="(pull mode: the turn was fetched from /api/v1/bots/me/turns)",
        reply_excerpt=excerpt(json.dumps(reply, ensure_ascii=False), REPLY_EXCERPT_CHARS),
    )
    try:
        with transaction.atomic():
            move = referee.submit(game.pk, answer.ply, seat.position, decision, state=state)
            Seat.objects.filter(pk=seat.pk).update(
                bank_left_ms=charge_time_bank(seat.bank_left_ms, elapsed_ms, game.move_time_ms)
            )
    except referee.RefereeError as exc:
        raise _as_pull_error(exc) from None
    return move


def _as_pull_error(exc: referee.RefereeError) -> PullError:
    status = {"no_game": 404, "illegal_action": 400}.get(exc.code, 409)
    code = "not_found" if exc.code == "no_game" else exc.code
    return PullError(status, code, str(exc))
