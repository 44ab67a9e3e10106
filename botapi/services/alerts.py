"""Telling a bot's owner, once, that the bot faulted in a game or was suspended.

Where the facts are recorded, a hook registers a callback for when the
transaction commits; the callback queues a Celery task (default queue), and
the task sends. So the referee never waits on mail or a webhook (in the
embedded mode too: the serving process's own worker threads send):

* :func:`fault_recorded` -- the referee, for every counted fault of a seat
  (``games.referee.steps._record``); persons' seats are dropped by the task;
* :func:`suspended` -- ``services.record_game_health``, when it suspends a
  bot after its run of faulty games. An owner's own suspension is not
  alerted: they did it.

*Told once.* A :class:`BotAlert` row, unique on (bot, key), is inserted by
the task before anything is sent, and only the task that inserted it sends:
``game:<id>`` for the first fault of a game (the second fault's task, or a
task run twice by Celery's at-least-once delivery, finds the row and sends
nothing), ``suspension:<time>`` for a suspension. It is at most once: a
worker killed between the insert and the mail loses that alert rather than
risk sending it twice. The alert names the game's *first* fault of the
bot's seats, read from the log, whichever fault's task got there first.

*Sending.* An e-mail to the owner's address through Django's mail (the
console unless ``EMAIL_HOST`` is set) and, if the owner set
``Bot.alert_webhook_url``, a JSON POST signed with the bot's secret exactly
like a protocol request, through the bot client (the SSRF guard at every
connection, a hard deadline, no redirects). Each is tried once: a failure is
logged and recorded on the alert, never retried, never raised.
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from botapi import protocol
from botapi.client import default_client
from botapi.models import Bot, BotAlert
from games.models import Game, Move, Seat
from games.referee.decisions import FORFEITED

log = logging.getLogger(__name__)

WEBHOOK_TIMEOUT_MS = 3000
"""The whole webhook exchange, as for a ping: a slow receiver only loses its alert."""

NOT_ALERTED = frozenset({FORFEITED, "bot_inactive", "no_bot"})
"""Fault kinds that tell the owner nothing new: the seat already forfeited, or the bot is
suspended or disabled (which the suspension alert, or the staff, already said)."""


# ------------------------------------------------------------------ hooks
def fault_recorded(game_id: int, position: int, fault_kind: str) -> None:
    """Referee hook, inside the fault's transaction: alert once the fault is committed."""
    if fault_kind in NOT_ALERTED:
        return
    transaction.on_commit(partial(_queue, "fault", game_id, position))


def suspended(bot: Bot) -> None:
    """Suspension hook, inside its transaction: alert once the suspension is committed."""
    changed = (bot.status_changed_at or timezone.now()).isoformat()
    transaction.on_commit(partial(_queue, "suspension", bot.pk, changed))


def _queue(kind: str, *args: Any) -> None:
    # botapi.tasks imports this module: at the top the import would be circular.
    from botapi.tasks import fault_alert, suspension_alert

    try:
        (fault_alert if kind == "fault" else suspension_alert).delay(*args)
    except Exception:  # a broker down must not fail the referee's step after its commit
        log.exception("could not queue the %s alert %s", kind, args)


# ------------------------------------------------------------- the tasks' work
def send_fault_alert(game_id: int, position: int) -> BotAlert | None:
    """Alert the owner of the bot at ``position`` about its first fault in the game, once.

    None when there is nothing to send: not a bot's seat, no alertable fault
    (the log says so, whatever the caller thought), or already alerted.
    """
    seat = (
        Seat.objects.filter(game_id=game_id, position=position)
        .select_related("competitor__bot__owner", "game")
        .first()
    )
    bot = _bot_of(seat)
    if seat is None or bot is None:
        return None
    own = Seat.objects.filter(game_id=game_id, competitor_id=bot.competitor_id).values("position")
    first = (
        Move.objects.filter(game_id=game_id, seat__in=own)
        .exclude(fault_kind="")
        .exclude(fault_kind__in=NOT_ALERTED)
        .order_by("ply")
        .only("ply", "fault_kind", "fault_detail")
        .first()
    )
    if first is None:
        return None
    alert = _claim(
        bot,
        key=f"game:{game_id}",
        kind=BotAlert.Kind.FAULT,
        game=seat.game,
        ply=first.ply,
        fault_kind=first.fault_kind,
        detail=first.fault_detail[:2000],
    )
    if alert is not None:
        _deliver(bot, alert)
    return alert


def send_suspension_alert(bot_id: int, suspended_at: str) -> BotAlert | None:
    """Alert the owner that the bot was suspended at ``suspended_at`` (ISO time), once."""
    bot = Bot.objects.select_related("owner", "competitor").filter(pk=bot_id).first()
    if bot is None:
        return None
    alert = _claim(
        bot,
        key=f"suspension:{suspended_at}",
        kind=BotAlert.Kind.SUSPENSION,
        detail=bot.status_reason if bot.status == Bot.Status.SUSPENDED else "",
    )
    if alert is not None:
        _deliver(bot, alert)
    return alert


def _bot_of(seat: Seat | None) -> Bot | None:
    if seat is None:
        return None
    try:
        return seat.competitor.bot
    except Bot.DoesNotExist:
        return None


def _claim(bot: Bot, **fields: Any) -> BotAlert | None:
    """Insert the alert's row; None if it exists (someone else sends, or sent, it)."""
    try:
        with transaction.atomic():
            return BotAlert.objects.create(bot=bot, **fields)
    except IntegrityError:
        return None


# ----------------------------------------------------------------- sending
def owner_page_url(bot: Bot, game_id: int | None = None) -> str:
    """The absolute link to the bot's owner page (``SITE_URL``), filtered to a game if given."""
    path = reverse("botlog:log", args=[bot.pk])
    query = f"?{urlencode({'game': game_id})}" if game_id is not None else ""
    return f"{settings.SITE_URL}{path}{query}"


def _deliver(bot: Bot, alert: BotAlert) -> None:
    alert.mailed = _mail(bot, alert)
    if bot.alert_webhook_url:
        alert.webhook_result = _call_webhook(bot, alert)[:300]
    alert.save(update_fields=["mailed", "webhook_result"])


def message(bot: Bot, alert: BotAlert) -> tuple[str, str]:
    """The e-mail's subject and body."""
    name = bot.competitor.name
    link = owner_page_url(bot, alert.game_id)
    if alert.kind == BotAlert.Kind.FAULT:
        game: Game = alert.game
        subject = f"[Harbormaster] {name} faulted in game {game.pk} ({alert.fault_kind})"
        body = (
            f"Your bot {name} faulted in game {game.pk} ({game.engine}) at ply {alert.ply}.\n\n"
            f"Fault: {alert.fault_kind}\n"
            f"Detail: {alert.detail}\n\n"
            "The referee played the game's default action in its place (passing "
            "wherever the rules allow). After "
            f"{settings.BOT_MAX_FAULTS_PER_GAME} faults in a game the bot forfeits it; after "
            f"{settings.BOT_SUSPEND_AFTER_FAULTY_GAMES} faulty games in a row it is suspended.\n\n"
            f"Every request, reply and fault of this game: {link}\n\n"
            "You are told once per game: later faults in this game are in the log only.\n"
        )
    else:
        subject = f"[Harbormaster] {name} was suspended"
        body = (
            f"Your bot {name} was suspended and plays no more games until you reactivate it.\n\n"
            f"Reason: {alert.detail or 'not given'}\n\n"
            f"Its faults, and the button to reactivate it once it is fixed: {link}\n"
        )
    return subject, body


def _mail(bot: Bot, alert: BotAlert) -> bool:
    address = bot.owner.email
    if not address:
        log.info("no e-mail for %s: its owner has no address", alert)
        return False
    subject, body = message(bot, alert)
    try:
        send_mail(subject, body, None, [address])
    except Exception:
        log.exception("the e-mail for %s could not be sent", alert)
        return False
    return True


def webhook_payload(bot: Bot, alert: BotAlert, now: datetime | None = None) -> dict[str, Any]:
    """The JSON the webhook receives (``docs/bot-protocol.md``, "Alerts")."""
    is_fault = alert.kind == BotAlert.Kind.FAULT
    return {
        "protocol": protocol.PROTOCOL_VERSION,
        "kind": "alert",
        "request_id": protocol.new_request_id(),
        "alert": str(alert.kind),
        "bot": {"id": bot.pk, "name": bot.name, "competitor": bot.competitor.name},
        "game": {"id": alert.game_id, "engine": alert.game.engine} if is_fault else None,
        "ply": alert.ply if is_fault else None,
        "fault": {"kind": alert.fault_kind, "detail": alert.detail} if is_fault else None,
        "status": bot.status,
        "status_reason": bot.status_reason,
        "url": owner_page_url(bot, alert.game_id),
        "sent_at": (now or timezone.now()).isoformat(),
    }


def _call_webhook(bot: Bot, alert: BotAlert) -> str:
    """POST the signed alert once; what happened, in words. Never raises."""
    # botapi.services.bots imports this module: at the top the import would be circular.
    from botapi.services.bots import endpoint_policy

    try:
        result = default_client(endpoint_policy()).notify(
            bot.alert_webhook_url,
            bot.signing_secret,
            webhook_payload(bot, alert),
            timeout_ms=WEBHOOK_TIMEOUT_MS,
        )
    except Exception as exc:  # the client never raises because of the receiver; be sure
        log.exception("the webhook of %s failed", alert)
        return f"failed: {type(exc).__name__}"
    if result.ok:
        return f"delivered: HTTP {result.status_code} in {round(result.latency_ms)} ms"
    log.warning("the webhook of %s failed: %s %s", alert, result.fault, result.detail)
    return f"failed: {result.fault}: {result.detail}"
