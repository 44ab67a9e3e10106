"""Periodic pings: beat keeps every active push bot's health current (issue 14).

Real SDK bots on loopback answer; a closed port stands for a bot that is down.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone
from harbormaster_bot import serve_in_background

from botapi import tasks
from botapi.models import Bot
from botapi.services import bots as services
from harbormaster.celery import app
from tests.botapi.servers import unused_port
from tests.factories import BotFactory

pytestmark = pytest.mark.django_db


def dead_url() -> str:
    return f"http://127.0.0.1:{unused_port()}/"


def test_active_push_bots_due_for_a_ping_are_pinged_and_their_health_recorded() -> None:
    now = timezone.now()
    live = BotFactory(last_ping_at=now - timedelta(hours=1), last_ping_ok=False)
    never = BotFactory(endpoint_url=dead_url())
    with serve_in_background(lambda turn: 0, secret=live.signing_secret, name="alive") as bot:
        Bot.objects.filter(pk=live.pk).update(endpoint_url=bot.url)
        results = services.ping_due_bots(now)
    assert len(results) == 2
    live.refresh_from_db()
    never.refresh_from_db()
    assert live.last_ping_ok is True and live.last_ping_detail.startswith("answered as alive")
    assert live.last_ping_at >= now
    assert never.last_ping_ok is False and never.last_ping_detail.startswith("connection_error")
    assert never.status == Bot.Status.ACTIVE, "a failed ping records health, it does not suspend"


def test_bots_that_are_not_due_or_not_pingable_are_left_alone() -> None:
    now = timezone.now()
    untouched = [
        BotFactory(last_ping_at=now - timedelta(minutes=1), endpoint_url=dead_url()),  # recent
        BotFactory(status=Bot.Status.SUSPENDED, endpoint_url=dead_url()),
        BotFactory(status=Bot.Status.DISABLED, endpoint_url=dead_url()),
        BotFactory(mode=Bot.Mode.PULL, endpoint_url=""),
        BotFactory(mode=Bot.Mode.PULL, endpoint_url=dead_url()),
    ]
    before = {bot.pk: (bot.last_ping_at, bot.last_ping_detail) for bot in untouched}
    assert services.ping_due_bots(now) == []
    after = {
        bot.pk: (bot.last_ping_at, bot.last_ping_detail)
        for bot in Bot.objects.filter(pk__in=before)
    }
    assert after == before


def test_a_round_pings_at_most_a_batch_oldest_ping_first() -> None:
    now = timezone.now()
    url = dead_url()
    oldest = BotFactory(endpoint_url=url, last_ping_at=now - timedelta(days=3))
    never = BotFactory(endpoint_url=url)
    older = BotFactory(endpoint_url=url, last_ping_at=now - timedelta(days=2))
    newer = BotFactory(endpoint_url=url, last_ping_at=now - timedelta(days=1))
    assert len(services.ping_due_bots(now, batch=3)) == 3
    pinged = {bot.pk for bot in Bot.objects.filter(last_ping_at__gte=now)}
    assert pinged == {never.pk, oldest.pk, older.pk}
    assert newer.pk not in pinged


@override_settings(BOT_ENDPOINT_ALLOW=[])
def test_a_periodic_ping_goes_through_the_ssrf_guard() -> None:
    """An endpoint that is no longer allowed is refused without a connection."""
    bot = BotFactory(endpoint_url="http://127.0.0.1:9/")
    [result] = services.ping_due_bots()
    assert str(result.fault) == "ssrf_refused"
    bot.refresh_from_db()
    assert bot.last_ping_ok is False and bot.last_ping_detail.startswith("ssrf_refused")


def test_beat_runs_the_ping_task_every_ten_minutes() -> None:
    [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "botapi.ping_bots"]
    assert entry["schedule"] == 600.0
    assert entry["options"]["expires"] < entry["schedule"], "a late round is dropped, not stacked"
    assert "botapi.ping_bots" in app.tasks
    # A round must fit between two: a full batch of pings timing out.
    worst_case_s = services.PERIODIC_PING_BATCH * settings.BOT_PING_TIMEOUT_MS / 1000
    assert worst_case_s < entry["schedule"]
    assert services.PERIODIC_PING_AFTER.total_seconds() < entry["schedule"]


def test_the_task_pings_the_due_bots() -> None:
    bot = BotFactory(endpoint_url=dead_url())
    assert tasks.ping_bots() == 1
    bot.refresh_from_db()
    assert bot.last_ping_at is not None and bot.last_ping_ok is False


@override_settings(BOT_ENDPOINT_ALLOW=[])
def test_the_ping_endpoint_goes_through_the_ssrf_guard(api, user) -> None:
    """POST bots/{id}/ping/ (the "ping now" of docs/bot-protocol.md) is refused, not sent."""
    bot = BotFactory(owner=user, endpoint_url="http://127.0.0.1:9/")
    body = api.post(f"/api/v1/bots/{bot.pk}/ping/").json()
    assert (body["ok"], body["fault"]) == (False, "ssrf_refused")
    bot.refresh_from_db()
    assert bot.last_ping_detail.startswith("ssrf_refused")
