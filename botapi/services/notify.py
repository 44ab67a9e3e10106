"""Telling push bots that a game they sit in has started or finished.

Best effort by design: a ``start`` or ``finish`` message changes nothing in
the game, so a bot that is down or slow only misses the news (the result is
logged, never retried, never a fault). Sent after the transaction that
started or finished the game has committed, from a task, so the referee never
waits on it.
"""

from __future__ import annotations

import logging

from botapi import protocol
from botapi.client import default_client
from botapi.models import Bot
from botapi.services import bots as services
from games.models import Game
from games.selectors import spectator

log = logging.getLogger(__name__)


def _push_seats(game: Game) -> list[tuple[int, Bot]]:
    seats = game.seats.order_by("position").values_list("position", "competitor_id")
    bots = {
        bot.competitor_id: bot
        for bot in Bot.objects.filter(
            competitor_id__in=[c for _, c in seats], mode=Bot.Mode.PUSH, status=Bot.Status.ACTIVE
        ).exclude(endpoint_url="")  # the house anchors: played in-process, told nothing
    }
    return [(position, bots[c]) for position, c in seats if c in bots]


def game_info(game: Game, seat: int) -> dict:
    """The ``game`` object of every request about this game to ``seat``'s bot (act included)."""
    return protocol.game_info(
        game_id=game.pk,
        engine=game.engine,
        engine_version=game.engine_version,
        num_players=game.num_players,
        options=game.options,
        seat=seat,
    )


def notify_start(game: Game) -> int:
    """Send ``start`` to every active push bot at the table; return how many acknowledged."""
    players = [s.competitor.name for s in game.seats.select_related("competitor")]
    return _send(
        game,
        lambda seat: protocol.start_request(game=game_info(game, seat), players=players),
    )


def notify_finish(game: Game) -> int:
    """Send ``finish`` with the outcome (and who forfeited) to every active push bot."""
    outcome = {"scores": game.outcome.scores, "ranks": game.outcome.ranks}
    forfeited = list(game.seats.filter(forfeited=True).values_list("position", flat=True))
    return _send(
        game,
        lambda seat: protocol.finish_request(
            game=game_info(game, seat), outcome=outcome, forfeited=forfeited
        ),
    )


def finishes_to_send(game: Game) -> list[Game]:
    """The finished games whose ``finish`` may be sent now that ``game`` finished.

    A game of a duplicate set only once the whole set is over
    (``spectator.is_public``): its outcome would tell the set's other tables,
    the bot's own among them, about the deal they still play. The set's last
    finished game sends them all, so each is sent once, whichever task runs first.
    """
    if game.table_id is None:
        return [game]
    if not spectator.is_public(game):
        return []
    done = Game.objects.filter(table_id=game.table_id, status=Game.Status.FINISHED)
    games = list(done.select_related("outcome").order_by("finished_at", "pk"))
    return games if games and games[-1].pk == game.pk else []


def _send(game: Game, build) -> int:
    client = default_client(services.endpoint_policy())
    acknowledged = 0
    for seat, bot in _push_seats(game):
        request = build(seat)
        result = client.notify(bot.endpoint_url, bot.signing_secret, request)
        if result.ok:
            acknowledged += 1
        else:
            log.info(
                "bot %s did not take %s of game %s: %s %s",
                bot.pk, request["kind"], game.pk, result.fault, result.detail,
            )  # fmt: skip
    return acknowledged
