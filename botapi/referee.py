"""The referee's side of bots: asking a push bot for a move, and its health after a game.

The call happens outside any database transaction (a slow bot holds no lock).
A fault is never retried: it becomes the default action with the fault
recorded on the move for the bot's owner. Only the call itself can fault a
bot: a decision the referee lost before it was recorded (a worker killed
mid-call, a redelivered task, a failed claim) is asked again with a fresh
deadline, and the lost call is charged neither to the bot's faults nor to its
time bank (the bank is stored only with a recorded move).

Time control: a decision's deadline is the game's per-move limit plus the
seat's unused time bank (``Seat.bank_left_ms``); time taken beyond the
per-move limit is deducted from the bank (``games.referee.turns``, the
clock rules every seat shares).
"""

from __future__ import annotations

from functools import partial

from django.db import transaction

from botapi import anchor_player, protocol, turn_signals
from botapi.services import bots as services
from botapi.services.notify import game_info
from engines import State
from games.models import Game, Move, Seat
from games.referee.decisions import Decision, default_decision
from games.referee.turns import charge_time_bank, decision_deadline_ms

from .client import default_client
from .models import Bot
from .tasks import notify_bots


def ask_bot(game: Game, seat: Seat, state: State, ply: int) -> Decision | None:
    """A push bot's decision now (or its fault's default); None for a pull bot, which waits
    (its waiting long polls are woken: ``turn_signals.notify_turn``).

    The seat's event cursor and time bank are updated on ``seat`` in memory
    only: the referee stores them together with the move (in its claim of the
    ply), so a call whose move is refused changes nothing. ``seat.competitor``
    may come with its bot already loaded (``select_related("competitor__bot")``).
    """
    bot = _bot_of(seat)
    legal = state.legal_actions(seat.position)
    if bot is None:
        return default_decision(
            state, seat.position, "no_bot", "the competitor has no bot registered"
        )
    if not bot.is_active:
        return default_decision(
            state,
            seat.position,
            "bot_inactive",
            f"the bot is {bot.status}: {bot.status_reason or 'no reason'}",
        )
    if bot.is_anchor:
        return _ask_anchor(game, seat, state, ply, bot)
    if bot.mode == Bot.Mode.PULL:
        # Its waiting long polls look again once the turn is committed.
        transaction.on_commit(partial(turn_signals.notify_turn, bot.pk))
        return None
    request = protocol.act_request(
        game=game_info(game, seat.position),
        ply=ply,
        deadline_ms=decision_deadline_ms(game, seat),
        view=state.view(seat.position),
        legal_actions=legal,
        events=state.events[seat.events_sent :],
        time_bank_ms=seat.bank_left_ms if game.time_bank_ms else None,
        default_action=state.default_action(seat.position),
    )
    result = default_client(services.endpoint_policy()).act(
        bot.endpoint_url,
        bot.signing_secret,
        request,
        explain=lambda action: state.explain_illegal(seat.position, action, legal),
    )
    latency_ms = round(result.latency_ms)
    seat.events_sent = len(state.events)
    seat.bank_left_ms = charge_time_bank(seat.bank_left_ms, latency_ms, game.move_time_ms)
    record = {
        "latency_ms": latency_ms,
        "request_excerpt": result.request_excerpt,
        "reply_excerpt": result.reply_excerpt,
    }
    if result.ok:
        return Decision(result.action, source=Move.Source.BOT, **record)
    return default_decision(state, seat.position, str(result.fault), result.detail, **record)


def _ask_anchor(game: Game, seat: Seat, state: State, ply: int, bot: Bot) -> Decision:
    """A house anchor's decision, computed here in the worker from a push bot's request.

    The same request, deadline, events cursor and time bank as :func:`ask_bot`'s
    HTTP call (``botapi.anchor_player`` says why and what it costs).
    """
    deadline_ms = decision_deadline_ms(game, seat)
    request = protocol.act_request(
        game=game_info(game, seat.position),
        ply=ply,
        deadline_ms=deadline_ms,
        view=state.view(seat.position),
        legal_actions=state.legal_actions(seat.position),
        events=state.events[seat.events_sent :],
        time_bank_ms=seat.bank_left_ms if game.time_bank_ms else None,
        default_action=state.default_action(seat.position),
    )
    decision = anchor_player.decide(
        bot.anchor, request, deadline_ms, partial(default_decision, state, seat.position)
    )
    seat.events_sent = len(state.events)
    seat.bank_left_ms = charge_time_bank(
        seat.bank_left_ms, decision.latency_ms or 0, game.move_time_ms
    )
    return decision


def waits_for_pull(seat: Seat) -> bool:
    """Whether the seat's bot fetches its turns itself (then ``ask_bot`` returns None)."""
    bot = _bot_of(seat)
    return bot is not None and bot.is_active and bot.mode == Bot.Mode.PULL


def _bot_of(seat: Seat) -> Bot | None:
    """The seat's bot, from the loaded relation when there is one (else one query)."""
    try:
        return seat.competitor.bot
    except Bot.DoesNotExist:
        return None


def game_started(game: Game) -> None:
    """Once the new game is committed, tell its push bots (``start``, best effort)."""
    transaction.on_commit(lambda: notify_bots.delay(game.pk, "start"))


def game_finished(game: Game) -> None:
    """Count the game for each bot's health (faulty games in a row suspend a bot), and
    once the result is committed, tell the push bots (``finish``, best effort)."""
    for seat in game.seats.all():
        bot = Bot.objects.filter(competitor_id=seat.competitor_id).first()
        if bot is not None:
            services.record_game_health(bot, faulty=seat.fault_count > 0)
    transaction.on_commit(lambda: notify_bots.delay(game.pk, "finish"))
