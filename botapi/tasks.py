"""Celery tasks of the bot side (autodiscovered); logic lives in ``botapi.services.notify``,
``botapi.services.bots`` and ``botapi.services.alerts``."""

from __future__ import annotations

from celery import shared_task

from botapi.services import alerts, notify
from botapi.services import bots as services
from games.models import Game


@shared_task(name="botapi.notify_bots", ignore_result=True)
def notify_bots(game_id: int, kind: str) -> int:
    """Send ``start`` or ``finish`` of a game to its push bots (best effort)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    if kind == "start":
        return notify.notify_start(game)
    if kind == "finish" and game.status == Game.Status.FINISHED:
        return sum(notify.notify_finish(done) for done in notify.finishes_to_send(game))
    return 0


@shared_task(name="botapi.ping_bots", ignore_result=True)
def ping_bots() -> int:
    """Beat, every ten minutes: ping the active push bots due for it; how many were pinged."""
    return len(services.ping_due_bots())


@shared_task(name="botapi.fault_alert", ignore_result=True)
def fault_alert(game_id: int, position: int) -> bool:
    """Tell the owner of the bot at that seat about its first fault in the game (once)."""
    return alerts.send_fault_alert(game_id, position) is not None


@shared_task(name="botapi.suspension_alert", ignore_result=True)
def suspension_alert(bot_id: int, suspended_at: str) -> bool:
    """Tell the bot's owner that it was suspended at that time (once)."""
    return alerts.send_suspension_alert(bot_id, suspended_at) is not None
