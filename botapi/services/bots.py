"""What can happen to a bot: register, change, rotate credentials, ping, suspend, delete.

The REST API and the admin call these functions; they hold the rules, the
views only translate. A rule broken by the current state of a bot (deleting
a bot with game history, pinging a pull bot...) raises :class:`BotConflict`,
which the API answers with 409 and the message.

Hooks for the referee and the pull API:

* :func:`bot_for_pull_token` -- which bot a pull token belongs to;
* :func:`record_game_health` -- after each finished game, whether the bot
  faulted in it; suspends the bot after ``BOT_SUSPEND_AFTER_FAULTY_GAMES``
  faulty games in a row, with the reason its owner sees;
* :func:`endpoint_policy` -- the SSRF address policy every call must use.

And for beat: :func:`ping_due_bots` keeps every active push bot's health
fresh (task ``botapi.ping_bots``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, ProtectedError, Q
from django.utils import timezone

from botapi.client import BotClient, CallResult, default_client
from botapi.models import Bot, hash_pull_token
from botapi.services import alerts
from botapi.ssrf import AddressPolicy, check_endpoint
from games import retirement
from games.models import Competitor, Seat

PERIODIC_PING_AFTER = timedelta(minutes=5)
"""A periodic ping skips a bot pinged more recently than this (just registered, pinged by hand)."""
PERIODIC_PING_BATCH = 100
"""At most this many bots per round, oldest ping first: 100 x the 3 s ping timeout fits the
ten minutes between rounds; more bots wait for the next round."""

SIGNING_SECRET_PREFIX = "hms_"
PULL_TOKEN_PREFIX = "hmp_"
PULL_TOKEN_HINT_CHARS = 10


class BotConflict(Exception):
    """A request the bot's current state does not allow; ``code`` is stable, the text explains."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BotNameTaken(BotConflict):
    """The owner already has a bot of that name (raised if two requests race)."""

    def __init__(self, name: str) -> None:
        super().__init__("name_taken", f"you already have a bot named {name!r}")


@dataclass(frozen=True, slots=True)
class NewCredentials:
    """Credentials to show the owner exactly once; None where nothing new was made."""

    signing_secret: str | None = None
    pull_token: str | None = None


# ------------------------------------------------------------ credentials
def new_signing_secret() -> str:
    """A fresh HMAC key for push requests (256 bits of randomness)."""
    return SIGNING_SECRET_PREFIX + secrets.token_urlsafe(32)


def new_pull_token() -> str:
    """A fresh bearer token for pull mode (256 bits of randomness)."""
    return PULL_TOKEN_PREFIX + secrets.token_urlsafe(32)


def _set_pull_token(bot: Bot, token: str | None) -> None:
    bot.pull_token_hash = "" if token is None else hash_pull_token(token)
    bot.pull_token_hint = "" if token is None else token[:PULL_TOKEN_HINT_CHARS]


def bot_for_pull_token(token: str) -> Bot | None:
    """The pull-mode bot this token belongs to, or None. Status checks are the caller's."""
    if not token or not token.startswith(PULL_TOKEN_PREFIX):
        return None
    return (
        Bot.objects.select_related("owner", "competitor")
        .filter(pull_token_hash=hash_pull_token(token), mode=Bot.Mode.PULL)
        .first()
    )


# --------------------------------------------------------------- endpoint
def endpoint_policy() -> AddressPolicy:
    """The address policy of ``settings.BOT_ENDPOINT_ALLOW`` (read each time: tests change it)."""
    return AddressPolicy.coerce(settings.BOT_ENDPOINT_ALLOW)


def check_endpoint_url(url: str) -> str:
    """``url`` normalised if a bot may live there; raises ``ssrf.EndpointRefused`` otherwise."""
    return check_endpoint(url, endpoint_policy())


def competitor_name(owner: Any, bot_name: str) -> str:
    """How the bot appears on seats and leaderboards: ``owner/bot`` (unique, readable)."""
    return f"{owner.get_username()}/{bot_name}"[:100]


# ---------------------------------------------------------- registration
def register_bot(
    owner: Any,
    *,
    name: str,
    engines: list[str],
    mode: str = Bot.Mode.PUSH,
    endpoint_url: str = "",
    description: str = "",
    max_concurrent_games: int = 4,
    visibility: str = Bot.Visibility.PRIVATE,
    alert_webhook_url: str = "",
    previous_version: Bot | None = None,
) -> tuple[Bot, NewCredentials]:
    """Create the bot and its competitor together; return the credentials to show once.

    Inputs are assumed validated (the serializer or admin form did it, and
    ``versions.check_previous_version`` for ``previous_version``); the
    database still refuses a duplicate name, reported as :class:`BotNameTaken`,
    and a second newer version of one bot, as :class:`BotConflict`.
    """
    secret = new_signing_secret()
    pull_token = new_pull_token() if mode == Bot.Mode.PULL else None
    try:
        with transaction.atomic():
            competitor = Competitor.objects.create(
                kind=Competitor.Kind.BOT, name=competitor_name(owner, name), user=owner
            )
            bot = Bot(
                owner=owner,
                competitor=competitor,
                name=name,
                description=description,
                engines=sorted(engines),
                mode=mode,
                endpoint_url=endpoint_url,
                signing_secret=secret,
                max_concurrent_games=max_concurrent_games,
                visibility=visibility,
                alert_webhook_url=alert_webhook_url,
                previous_version=previous_version,
                status_changed_at=timezone.now(),
            )
            _set_pull_token(bot, pull_token)
            bot.save()
    except IntegrityError:
        if Bot.objects.filter(owner=owner, name=name).exists():
            raise BotNameTaken(name) from None
        if (
            previous_version is not None
            and Bot.objects.filter(previous_version=previous_version).exists()
        ):
            raise BotConflict(
                "has_newer_version",
                f"{previous_version.name!r} has just been given another newer version",
            ) from None
        raise
    return bot, NewCredentials(signing_secret=secret, pull_token=pull_token)


def register_and_ping(owner: Any, **fields: Any) -> tuple[Bot, NewCredentials]:
    """Register a bot as :func:`register_bot` does and ping it at once if it is a push bot.

    Both happen in one transaction, so the owner either gets the bot with its
    secret (and the ping's result, good or faulty, as its health) or nothing
    is created: never a bot whose secret was lost in a server error. Whatever
    the bot answers is a fault in the health record (the client never raises
    because of a bot); only a failure of our own can roll the registration back.
    """
    with transaction.atomic():
        bot, credentials = register_bot(owner, **fields)
        if bot.mode == Bot.Mode.PUSH:
            ping_bot(bot)
    return bot, credentials


def update_bot(bot: Bot, changes: dict[str, Any]) -> None:
    """Apply validated field changes; keep the competitor's name and the pull token in step.

    Switching to push mode revokes the pull token (a push bot never polls);
    switching to pull mode makes none: the owner gets one, shown once, from
    :func:`rotate_pull_token`.
    """
    allowed = {
        "name",
        "description",
        "engines",
        "mode",
        "endpoint_url",
        "max_concurrent_games",
        "visibility",
        "alert_webhook_url",
    }
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"not changeable here: {sorted(unknown)}")
    for field, value in changes.items():
        setattr(bot, field, sorted(value) if field == "engines" else value)
    if bot.mode == Bot.Mode.PUSH and bot.has_pull_token:
        _set_pull_token(bot, None)
    try:
        with transaction.atomic():
            bot.save()
            if "name" in changes:
                Competitor.objects.filter(pk=bot.competitor_id).update(
                    name=competitor_name(bot.owner, bot.name)
                )
    except IntegrityError:
        if Bot.objects.filter(owner=bot.owner, name=bot.name).exclude(pk=bot.pk).exists():
            raise BotNameTaken(bot.name) from None
        raise


def rotate_signing_secret(bot: Bot) -> str:
    """Replace the signing secret at once; the old one stops working immediately.

    There is no grace period: a secret is rotated because it may have leaked.
    Requests the referee signs from now on use the new secret, so the owner
    should suspend the bot, rotate, update it, then reactivate.
    """
    bot.signing_secret = new_signing_secret()
    bot.save(update_fields=["signing_secret", "updated_at"])
    return bot.signing_secret


def rotate_pull_token(bot: Bot) -> str:
    """Replace the pull token; the old one stops working immediately."""
    if bot.mode != Bot.Mode.PULL:
        raise BotConflict(
            "not_pull_mode",
            "this bot is in push mode and has no pull token; set mode to 'pull' to get one",
        )
    token = new_pull_token()
    _set_pull_token(bot, token)
    bot.save(update_fields=["pull_token_hash", "pull_token_hint", "updated_at"])
    return token


# ---------------------------------------------------------------- health
def ping_bot(bot: Bot, client: BotClient | None = None) -> CallResult:
    """Send a signed ``ping`` to a push bot now and record the result as its health."""
    if bot.mode != Bot.Mode.PUSH or not bot.endpoint_url:
        raise BotConflict(
            "not_push_mode",
            "only push bots with an endpoint URL can be pinged; a pull bot is never contacted",
        )
    client = client or default_client(endpoint_policy())
    result = client.ping(
        bot.endpoint_url, bot.signing_secret, timeout_ms=settings.BOT_PING_TIMEOUT_MS
    )
    record_ping(bot, result)
    return result


def record_ping(bot: Bot, result: CallResult) -> None:
    """Store a ping's result as the bot's health (``last_ping_*``), whoever sent the ping."""
    if result.ok:
        reply = result.reply or {}
        detail = f"answered as {reply.get('name', '?')} version {reply.get('version', '?')}"
    else:
        detail = f"{result.fault}: {result.detail}"
    bot.last_ping_at = timezone.now()
    bot.last_ping_ok = result.ok
    bot.last_ping_detail = detail[:500]
    bot.last_ping_latency_ms = round(result.latency_ms)
    bot.save(
        update_fields=[
            "last_ping_at",
            "last_ping_ok",
            "last_ping_detail",
            "last_ping_latency_ms",
            "updated_at",
        ]
    )


def ping_due_bots(
    now: datetime | None = None,
    *,
    older_than: timedelta = PERIODIC_PING_AFTER,
    batch: int = PERIODIC_PING_BATCH,
    client: BotClient | None = None,
) -> list[CallResult]:
    """Ping the active push bots not pinged within ``older_than``, oldest ping first.

    Beat runs this every ten minutes (``botapi.ping_bots``) so that a bot's
    health (``last_ping_*``) says whether it answers today, not only whether
    it did at registration. It records health only: a bot that does not
    answer stays active, and its games' faults decide whether it is
    suspended. Suspended and disabled bots, pull bots and bots without an
    endpoint are never pinged.
    """
    cutoff = (now or timezone.now()) - older_than
    due = (
        Bot.objects.filter(status=Bot.Status.ACTIVE, mode=Bot.Mode.PUSH, anchor="")
        .exclude(endpoint_url="")
        .filter(Q(last_ping_at__isnull=True) | Q(last_ping_at__lt=cutoff))
        .order_by(F("last_ping_at").asc(nulls_first=True), "pk")[:batch]
    )
    return [ping_bot(bot, client) for bot in due]


def _set_status(bot: Bot, status: str, reason: str) -> None:
    bot.status = status
    bot.status_reason = reason[:500]
    bot.status_changed_at = timezone.now()
    fields = ["status", "status_reason", "status_changed_at", "updated_at"]
    if status == Bot.Status.ACTIVE:
        bot.consecutive_faulty_games = 0
        fields.append("consecutive_faulty_games")
    bot.save(update_fields=fields)


def suspend_bot(bot: Bot, reason: str) -> None:
    """Stop the bot from being scheduled (owner's pause, or the fault rule)."""
    if bot.status == Bot.Status.DISABLED:
        raise BotConflict("disabled", f"the staff disabled this bot: {bot.status_reason}")
    _set_status(bot, Bot.Status.SUSPENDED, reason)


def reactivate_bot(bot: Bot, client: BotClient | None = None) -> None:
    """Make a suspended bot play again; a push bot must first answer a ping.

    The ping stops a still-broken bot from being re-suspended after another
    run of faulty games at its opponents' expense. A bot the staff disabled
    stays disabled. Reactivating an active bot changes nothing.
    """
    if bot.status == Bot.Status.ACTIVE:
        return
    if bot.status == Bot.Status.DISABLED:
        raise BotConflict(
            "disabled",
            f"the staff disabled this bot ({bot.status_reason or 'no reason given'}); "
            "only they can enable it",
        )
    if bot.mode == Bot.Mode.PUSH and not bot.is_anchor:  # an anchor has no endpoint to ping
        result = ping_bot(bot, client)
        if not result.ok:
            raise BotConflict(
                "ping_failed",
                f"the bot did not answer a ping, so it stays suspended: {bot.last_ping_detail}",
            )
    _set_status(bot, Bot.Status.ACTIVE, "")


def record_game_health(bot: Bot, *, faulty: bool) -> bool:
    """Referee hook, once per finished game: count faulty games in a row; True if suspended now.

    A clean game resets the count. Reaching ``BOT_SUSPEND_AFTER_FAULTY_GAMES``
    suspends the bot with a reason its owner sees in the API. A house anchor
    is never counted nor suspended: its faults are the service's own
    (``botapi.anchor_player``), and a suspended anchor would leave the ladders
    without their fixed points.
    """
    if bot.is_anchor:
        return False
    limit = settings.BOT_SUSPEND_AFTER_FAULTY_GAMES
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        locked.consecutive_faulty_games = locked.consecutive_faulty_games + 1 if faulty else 0
        locked.save(update_fields=["consecutive_faulty_games", "updated_at"])
        suspend = locked.is_active and locked.consecutive_faulty_games >= limit
        if suspend:
            _set_status(
                locked,
                Bot.Status.SUSPENDED,
                f"suspended automatically after {locked.consecutive_faulty_games} faulty games "
                "in a row; see the faults in its games' move logs, fix the bot, then reactivate",
            )
            alerts.suspended(locked)  # the owner is told once it is committed
    bot.refresh_from_db()
    return suspend


# -------------------------------------------------------------- deletion
def games_played(bot: Bot) -> int:
    return Seat.objects.filter(competitor_id=bot.competitor_id).values("game").distinct().count()


def delete_bot(bot: Bot) -> None:
    """Delete a bot that never sat at a game, with its competitor.

    A bot with game history is kept: seats, move logs, outcomes and ratings
    refer to it, and deleting it would rewrite other people's results. Its
    owner suspends it instead.
    """
    with transaction.atomic():
        played = games_played(bot)
        if played:
            raise BotConflict(
                "has_games",
                f"this bot has played {played} game(s); bots with game history are kept so "
                "that results and ratings stay intact. Suspend it instead "
                f"(POST /api/v1/bots/{bot.pk}/suspend/).",
            )
        kept = retirement.refusal(bot.competitor_id)
        if kept is not None:
            raise BotConflict(kept.code, f"this bot is {kept.reason}, so suspend the bot instead")
        try:
            Competitor.objects.filter(pk=bot.competitor_id).delete()
        except ProtectedError:  # seated by the referee since the count above
            raise BotConflict(
                "has_games", "this bot has just been seated at a game; suspend it instead"
            ) from None
