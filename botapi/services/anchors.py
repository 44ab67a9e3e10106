"""Creating the house anchors, idempotently: ``manage.py ensure_anchors`` and the demo call it.

The anchors are bots of the house account (``settings.EXAMPLE_BOTS_USERNAME``,
the example bots' owner, created here without a password if missing), so the
house-bot rules apply to them as they stand: anyone may seat them in the
lobby, in a challenge and in events, capacity counts their event games apart
from casual ones, and the arena's matchmaking treats them as ownerless. What
each one is comes from the catalogue, ``botapi.selectors.anchors``.

Running it again changes nothing but what the catalogue says (engines, the
description, the game limit) and reactivates an anchor that was suspended;
one the staff disabled stays disabled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import engines
from botapi.models import Bot
from botapi.selectors.anchors import ANCHORS, Anchor, bot_name
from botapi.services.bots import competitor_name, new_signing_secret
from games.models import Competitor
from games.selectors.rating_rules import example_bots_username


@dataclass(frozen=True)
class Ensured:
    """One anchor's bot, and whether this run created it."""

    bot: Bot
    created: bool


def house_user() -> Any:
    """The house account that owns the example bots and the anchors (nobody logs in as it)."""
    user, created = get_user_model().objects.get_or_create(username=example_bots_username())
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def ensure_anchors() -> list[Ensured]:
    """Every anchor of the catalogue as an active house bot of every engine; weakest first."""
    slugs = sorted(engine.slug for engine in engines.all_engines())
    with transaction.atomic():
        owner = house_user()
        return [_ensure(owner, anchor, slugs) for anchor in ANCHORS]


def _ensure(owner: Any, anchor: Anchor, slugs: list[str]) -> Ensured:
    name = bot_name(anchor)
    description = f"House anchor: {anchor.summary}."[:300]
    bot = Bot.objects.select_for_update().filter(owner=owner, name=name).first()
    if bot is None:
        competitor = Competitor.objects.create(
            kind=Competitor.Kind.BOT, name=competitor_name(owner, name), user=owner
        )
        bot = Bot.objects.create(
            owner=owner,
            competitor=competitor,
            name=name,
            description=description,
            engines=slugs,
            mode=Bot.Mode.PUSH,  # asked at once, like a push bot; it has no endpoint
            signing_secret=new_signing_secret(),  # never used: nothing is signed for it
            visibility=Bot.Visibility.CHALLENGE,
            max_concurrent_games=anchor.max_games,
            anchor=anchor.slug,
            status_changed_at=timezone.now(),
        )
        return Ensured(bot, True)
    bot.anchor, bot.engines, bot.description = anchor.slug, slugs, description
    bot.max_concurrent_games = anchor.max_games
    bot.visibility = Bot.Visibility.CHALLENGE
    fields = ["anchor", "engines", "description", "max_concurrent_games", "visibility"]
    if bot.status == Bot.Status.SUSPENDED:
        bot.status, bot.status_reason, bot.status_changed_at = Bot.Status.ACTIVE, "", timezone.now()
        bot.consecutive_faulty_games = 0
        fields += ["status", "status_reason", "status_changed_at", "consecutive_faulty_games"]
    bot.save(update_fields=[*fields, "updated_at"])
    return Ensured(bot, False)
