"""The owner page's per-bot part, from the cache instead of two queries and a render.

``/bots/<id>/log/`` read, on every request, the bot with its competitor (the
ownership check, the health section, the title) and its ten latest alerts,
and rendered both: two queries and their ORM work, about half of a warm
request's CPU once its chart, log and versions came from the page cache, and
the alerts list alone 0.8 ms more with ten alerts (docs/architecture.md,
"Signed in, warm"). All of it changes only when one of those rows is
written, so what the page makes of them (``web.bots.views``: the rows and
their rendered HTML) is kept in Django's cache, beside a per-bot token
(:mod:`web.cache.versioned`, the scheme the signed-in user's row uses) that every
such write replaces, at once and again after its commit:

- a :class:`Bot` saved or deleted -- every change of its status (suspended by
  its owner or after faulty games, reactivated, disabled by the staff), its
  pings, its faulty-game count, its webhook, its owner, its name: each is a
  ``save()`` (``botapi.services``, the admin; the project updates no bot with
  ``QuerySet.update()``);
- a :class:`BotAlert` saved or deleted (inserted by the alert task, then saved
  again with what became of the mail and the webhook);
- the bot's :class:`Competitor` saved (the name in the title; deleting it
  deletes the bot, which bumps).

The ownership check reads the cached row's ``owner_id``: anyone else gets the
404 of a missing bot, as before, and a bot given to another owner (a save)
is read afresh. The signing secret and the pull token's hash are not read
into the cache at all (deferred: nothing on the page shows them), so the cache
holds nothing that lets anyone act as the bot.

On with the page cache and for as long (``PAGECACHE_SECONDS``; 0: every request
reads the database), which is also the safety net for a write no signal sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db.models.signals import post_delete, post_save

from botapi.models import Bot, BotAlert
from games.models import Competitor
from web.cache import pagecache, versioned

NAME = "bot-owner-page"
RECENT_ALERTS = 10
SECRET_FIELDS = ("signing_secret", "pull_token_hash", "pull_token_hint")

T = TypeVar("T")


def rows(bot_id: int) -> tuple[Bot, list[BotAlert]] | None:
    """Bot ``bot_id`` (with its competitor, without its secrets) and its latest alerts, newest
    first, from the database (two queries); None if there is no such bot."""
    bot = Bot.objects.select_related("competitor").defer(*SECRET_FIELDS).filter(pk=bot_id).first()
    if bot is None:
        return None
    return bot, list(BotAlert.objects.filter(bot_id=bot_id)[:RECENT_ALERTS])


def read(bot_id: int, load: Callable[[], T | None]) -> T | None:
    """What ``load()`` makes of bot ``bot_id``'s rows: the stored value if current, else its own.

    ``load`` must read only the bot's row, its competitor and its alerts (what
    bumps the token); None (no such bot) is not stored. The caller checks the
    owner.
    """
    seconds = pagecache.seconds()
    if seconds <= 0:
        return load()
    return versioned.read(NAME, bot_id, load, seconds)


def keys(bot_id: int) -> tuple[str, str]:
    """The cache keys :func:`read` reads for bot ``bot_id`` (to read them in a batch)."""
    return versioned.keys(NAME, bot_id)


def bump(bot_id: int | None) -> None:
    """Bot ``bot_id``'s row or alerts changed: read them afresh (now and after the commit)."""
    if bot_id is not None:
        versioned.bump(NAME, bot_id)


def _bot_changed(sender: Any, instance: Bot, **kwargs: Any) -> None:
    bump(instance.pk)


def _alert_changed(sender: Any, instance: BotAlert, **kwargs: Any) -> None:
    bump(instance.bot_id)


def _competitor_changed(
    sender: Any, instance: Competitor, created: bool = False, **kwargs: Any
) -> None:
    # A new competitor has no bot yet (register_bot makes the bot after it); a person's has none.
    if created or instance.kind != Competitor.Kind.BOT:
        return
    for bot_id in Bot.objects.filter(competitor_id=instance.pk).values_list("pk", flat=True):
        bump(bot_id)


def connect() -> None:
    """Connect the receivers (``BotApiConfig.ready``)."""
    post_save.connect(_bot_changed, sender=Bot, dispatch_uid="owner-cache-bot-save")
    post_delete.connect(_bot_changed, sender=Bot, dispatch_uid="owner-cache-bot-delete")
    post_save.connect(_alert_changed, sender=BotAlert, dispatch_uid="owner-cache-alert-save")
    post_delete.connect(_alert_changed, sender=BotAlert, dispatch_uid="owner-cache-alert-delete")
    post_save.connect(
        _competitor_changed, sender=Competitor, dispatch_uid="owner-cache-competitor-save"
    )
