"""Fault and suspension alerts: told once, by mail and by a signed webhook, never blocking."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from harbormaster_bot.signing import verify_signature

from botapi.models import Bot, BotAlert
from botapi.services import alerts
from botapi.services import bots as services
from games.models import Game, Move, Seat
from games.referee import steps as referee
from games.services import create_game
from tests.botapi.owner_fixtures import game_with_moves
from tests.botapi.servers import MisbehavingServer
from tests.factories import BotFactory, UserFactory


@pytest.fixture
def server():
    running = MisbehavingServer().start()
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def _site(settings) -> None:
    settings.SITE_URL = "https://harbor.example.org"
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    settings.CELERY_TASK_ALWAYS_EAGER = True


def webhook_bot(server, path: str = "/ping", **fields) -> Bot:
    owner = UserFactory(password=None)
    return BotFactory(owner=owner, alert_webhook_url=server.url(path), **fields)


# ----------------------------------------------------- through the referee
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_referee")
def test_two_faults_in_a_game_send_one_mail_and_one_webhook_call_per_bot(server) -> None:
    """Three pull bots time out twice each in one game: each owner is told once."""
    bots = [webhook_bot(server, mode="pull", endpoint_url="") for _ in range(3)]
    game = create_game("manila", [b.competitor for b in bots], move_time_ms=1000)
    for _ in range(40):
        if min(Seat.objects.filter(game=game).values_list("fault_count", flat=True)) >= 2:
            break
        Game.objects.filter(pk=game.pk).update(
            last_progress_at=timezone.now() - timedelta(seconds=60)
        )
        referee.advance(game.pk)
    counts = sorted(Seat.objects.filter(game=game).values_list("fault_count", flat=True))
    assert min(counts) >= 2  # every bot faulted twice or more (the next mover may be at 3)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(b.owner.email for b in bots)
    hooks = server.requests_to("/ping")
    assert len(hooks) == 3
    assert {h.json["bot"]["id"] for h in hooks} == {b.pk for b in bots}
    assert BotAlert.objects.count() == 3
    for bot in bots:
        first = (
            Move.objects.filter(
                game=game, seat__in=game.seats.filter(competitor=bot.competitor).values("position")
            )
            .exclude(fault_kind="")
            .order_by("ply")
            .first()
        )
        alert = BotAlert.objects.get(bot=bot)
        assert (alert.game_id, alert.ply, alert.fault_kind) == (game.pk, first.ply, "timeout")
        assert alert.mailed and alert.webhook_result.startswith("delivered: HTTP 200")


# ----------------------------------------------------------- fault alerts
@pytest.mark.django_db
def test_the_mail_names_game_ply_fault_and_links_the_owner_page(server) -> None:
    bot = webhook_bot(server)
    game = game_with_moves(
        bot,
        [
            {"latency_ms": 4},
            {
                "latency_ms": 5001,
                "source": "default",
                "fault_kind": "timeout",
                "fault_detail": "no complete reply within 5000 ms",
            },
            {
                "latency_ms": 2,
                "source": "default",
                "fault_kind": "illegal_action",
                "fault_detail": "x",
            },
        ],
    )
    alert = alerts.send_fault_alert(game.pk, 0)
    assert alert is not None
    assert alerts.send_fault_alert(game.pk, 0) is None  # a second fault's task, a redelivery
    assert len(mail.outbox) == 1 and len(server.requests_to("/ping")) == 1
    sent = mail.outbox[0]
    assert sent.to == [bot.owner.email]
    assert (
        sent.subject == f"[Harbormaster] {bot.competitor.name} faulted in game {game.pk} (timeout)"
    )
    link = f"https://harbor.example.org/bots/{bot.pk}/log/?game={game.pk}"
    assert f"game {game.pk} (manila) at ply 1" in sent.body
    assert "Fault: timeout" in sent.body
    assert "Detail: no complete reply within 5000 ms" in sent.body
    assert link in sent.body


@pytest.mark.django_db
def test_the_webhook_is_signed_with_the_bots_secret(server) -> None:
    bot = webhook_bot(server)
    game = game_with_moves(
        bot,
        [
            {
                "latency_ms": 9,
                "source": "default",
                "fault_kind": "http_status",
                "fault_detail": "HTTP 401",
            }
        ],
    )
    alerts.send_fault_alert(game.pk, 0)
    (hook,) = server.requests_to("/ping")
    verify_signature(bot.signing_secret, hook.body, hook.headers)
    payload = json.loads(hook.body)
    assert payload["kind"] == "alert" and payload["alert"] == "fault"
    assert payload["bot"] == {"id": bot.pk, "name": bot.name, "competitor": bot.competitor.name}
    assert payload["game"] == {"id": game.pk, "engine": "manila"}
    assert payload["ply"] == 0
    assert payload["fault"] == {"kind": "http_status", "detail": "HTTP 401"}
    assert payload["url"] == f"https://harbor.example.org/bots/{bot.pk}/log/?game={game.pk}"
    assert payload["status"] == "active"


@pytest.mark.django_db
def test_a_failing_webhook_is_logged_and_changes_nothing_else(server, caplog) -> None:
    bot = webhook_bot(server, path="/error")
    game = game_with_moves(bot, [{"latency_ms": 9, "fault_kind": "timeout"}])
    alert = alerts.send_fault_alert(game.pk, 0)
    assert alert.mailed and len(mail.outbox) == 1
    assert alert.webhook_result.startswith("failed: http_status: HTTP 500")
    assert len(server.requests_to("/error")) == 1  # tried once, never again
    assert "webhook" in caplog.text


@pytest.mark.django_db
def test_a_webhook_to_a_forbidden_address_is_refused_at_connection(server) -> None:
    bot = webhook_bot(server)
    Bot.objects.filter(pk=bot.pk).update(
        alert_webhook_url="http://10.9.8.7:9/hook"
    )  # past the form
    bot.refresh_from_db()
    game = game_with_moves(bot, [{"latency_ms": 9, "fault_kind": "timeout"}])
    alert = alerts.send_fault_alert(game.pk, 0)
    assert alert.webhook_result.startswith("failed: ssrf_refused")
    assert alert.mailed


@pytest.mark.django_db
def test_a_mail_server_failure_does_not_stop_the_webhook(server, settings) -> None:
    settings.EMAIL_BACKEND = "tests.botapi.test_alerts.BrokenMail"
    bot = webhook_bot(server)
    game = game_with_moves(bot, [{"latency_ms": 9, "fault_kind": "timeout"}])
    alert = alerts.send_fault_alert(game.pk, 0)
    assert not alert.mailed
    assert alert.webhook_result.startswith("delivered")


class BrokenMail:
    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("the SMTP server is down")


@pytest.mark.django_db
def test_no_alert_for_a_persons_seat_nor_for_forfeited_or_inactive_defaults(server) -> None:
    bot = webhook_bot(server)
    game = game_with_moves(
        bot,
        [
            {"latency_ms": None, "source": "default", "fault_kind": "forfeited"},
            {"latency_ms": None, "source": "default", "fault_kind": "bot_inactive"},
        ],
    )
    assert alerts.send_fault_alert(game.pk, 0) is None
    assert alerts.send_fault_alert(game.pk, 1) is None  # the stranger's seat: no bot
    assert not mail.outbox and not server.received


@pytest.mark.django_db
def test_the_hook_registers_nothing_for_kinds_that_tell_nothing(
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        alerts.fault_recorded(1, 0, "forfeited")
        alerts.fault_recorded(1, 0, "bot_inactive")
        alerts.fault_recorded(1, 0, "timeout")
    assert len(callbacks) == 1


# ------------------------------------------------------ suspension alerts
@pytest.mark.django_db
def test_a_suspension_sends_one_alert(server, settings, django_capture_on_commit_callbacks) -> None:
    settings.BOT_SUSPEND_AFTER_FAULTY_GAMES = 3
    bot = webhook_bot(server)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5):  # suspended at the third; the later games find it suspended
            services.record_game_health(bot, faulty=True)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.SUSPENDED
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.subject == f"[Harbormaster] {bot.competitor.name} was suspended"
    assert "after 3 faulty games in a row" in sent.body
    assert f"https://harbor.example.org/bots/{bot.pk}/log/" in sent.body
    (hook,) = server.requests_to("/ping")
    verify_signature(bot.signing_secret, hook.body, hook.headers)
    payload = hook.json
    assert (payload["alert"], payload["game"], payload["status"]) == (
        "suspension",
        None,
        "suspended",
    )
    # The task run again (Celery redelivers) sends nothing more.
    assert alerts.send_suspension_alert(bot.pk, bot.status_changed_at.isoformat()) is None
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_an_owners_own_suspension_is_not_alerted(
    server, django_capture_on_commit_callbacks
) -> None:
    bot = webhook_bot(server)
    with django_capture_on_commit_callbacks(execute=True):
        services.suspend_bot(bot, "paused for an update")
    assert not mail.outbox and not server.received


@pytest.mark.django_db
def test_an_owner_without_an_address_still_gets_the_webhook(server) -> None:
    bot = webhook_bot(server)
    type(bot.owner).objects.filter(pk=bot.owner.pk).update(email="")
    game = game_with_moves(bot, [{"latency_ms": 9, "fault_kind": "timeout"}])
    alert = alerts.send_fault_alert(game.pk, 0)
    assert not alert.mailed and not mail.outbox
    assert alert.webhook_result.startswith("delivered")
