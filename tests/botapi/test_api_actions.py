"""Rotate credentials, ping, suspend and reactivate, against real SDK bots on loopback."""

from __future__ import annotations

import pytest
from harbormaster_bot import serve_in_background
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

from botapi import services
from botapi.models import Bot
from tests.botapi.servers import unused_port
from tests.factories import BotFactory, UserFactory
from web.api.bots.authentication import BotTokenAuthentication

pytestmark = pytest.mark.django_db


def sdk_bot(secret: str):
    return serve_in_background(lambda turn: 0, secret=secret, name="sdkbot", version="3.1")


def url(bot: Bot, action: str) -> str:
    return f"/api/v1/bots/{bot.pk}/{action}/"


# --------------------------------------------------------------- ping
def test_ping_a_live_bot_records_healthy(api, user):
    bot = BotFactory(owner=user)
    with sdk_bot(bot.signing_secret) as running:
        Bot.objects.filter(pk=bot.pk).update(endpoint_url=running.url)
        response = api.post(url(bot, "ping"))
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True and body["fault"] is None
    assert body["reply"]["name"] == "sdkbot" and body["reply"]["version"] == "3.1"
    bot.refresh_from_db()
    assert bot.last_ping_ok is True
    assert bot.last_ping_detail == "answered as sdkbot version 3.1"
    assert bot.last_ping_latency_ms is not None
    assert body["health"]["last_ping_ok"] is True


def test_ping_a_dead_bot_records_the_fault(api, user):
    bot = BotFactory(owner=user, endpoint_url=f"http://127.0.0.1:{unused_port()}/")
    body = api.post(url(bot, "ping")).json()
    assert (body["ok"], body["fault"]) == (False, "connection_error")
    bot.refresh_from_db()
    assert bot.last_ping_ok is False
    assert bot.last_ping_detail.startswith("connection_error: ")


def test_ping_a_pull_bot_is_a_409(api, user):
    bot = BotFactory(owner=user, mode="pull", endpoint_url="")
    response = api.post(url(bot, "ping"))
    assert response.status_code == 409
    assert response.json()["code"] == "not_push_mode"
    bot.refresh_from_db()
    assert bot.last_ping_at is None


def test_pings_are_rate_limited_per_user(api, user):
    """Each ping makes the server contact a URL of the user's choosing."""
    bot = BotFactory(owner=user, mode="pull", endpoint_url="")  # 409 at once: no network
    codes = [api.post(url(bot, "ping")).status_code for _ in range(61)]
    assert codes[:60] == [409] * 60
    assert codes[60] == 429
    someone = UserFactory(password=None)
    other = APIClient()
    other.force_authenticate(someone)
    other_bot = BotFactory(owner=someone, mode="pull", endpoint_url="")
    assert other.post(url(other_bot, "ping")).status_code == 409  # not throttled


# ------------------------------------------------------------ secrets
def test_rotate_secret_replaces_it_at_once(api, user):
    bot = BotFactory(owner=user)
    old = bot.signing_secret
    with sdk_bot(old) as running:
        Bot.objects.filter(pk=bot.pk).update(endpoint_url=running.url)
        assert api.post(url(bot, "ping")).json()["ok"] is True
        response = api.post(url(bot, "rotate-secret"))
        assert response.status_code == 200
        new = response.json()["signing_secret"]
        assert new != old and new.startswith("hms_")
        bot.refresh_from_db()
        assert bot.signing_secret == new
        # The bot still holds the old secret: the referee's next request fails its check.
        refused = api.post(url(bot, "ping")).json()
        assert (refused["ok"], refused["fault"], refused["status_code"]) == (
            False,
            "http_status",
            401,
        )
    with sdk_bot(new) as running:
        Bot.objects.filter(pk=bot.pk).update(endpoint_url=running.url)
        assert api.post(url(bot, "ping")).json()["ok"] is True


def test_rotate_pull_token_invalidates_the_old_one(api, user):
    bot = BotFactory(owner=user, mode="pull", endpoint_url="")
    first = api.post(url(bot, "rotate-pull-token")).json()["pull_token"]
    assert services.bot_for_pull_token(first) == bot
    second = api.post(url(bot, "rotate-pull-token")).json()["pull_token"]
    assert second != first
    assert services.bot_for_pull_token(first) is None
    assert services.bot_for_pull_token(second) == bot
    body = api.get(f"/api/v1/bots/{bot.pk}/").json()
    assert body["pull_token_hint"] == second[:10]
    assert second not in str(body)


def test_rotate_pull_token_of_a_push_bot_is_a_409(api, user):
    bot = BotFactory(owner=user)
    response = api.post(url(bot, "rotate-pull-token"))
    assert response.status_code == 409
    assert response.json()["code"] == "not_pull_mode"
    bot.refresh_from_db()
    assert not bot.has_pull_token


# ---------------------------------------------------- suspend/reactivate
def test_suspend_with_and_without_a_reason(api, user):
    bot = BotFactory(owner=user)
    body = api.post(url(bot, "suspend"), {"reason": "tuning it"}, format="json").json()
    assert (body["status"], body["status_reason"]) == ("suspended", "tuning it")
    other = BotFactory(owner=user)
    assert api.post(url(other, "suspend")).json()["status_reason"] == "suspended by its owner"


def test_suspend_refuses_an_unknown_body_field(api, user):
    bot = BotFactory(owner=user)
    response = api.post(url(bot, "suspend"), {"why": "x"}, format="json")
    assert (response.status_code, response.json()) == (400, {"why": ["unknown field"]})
    bot.refresh_from_db()
    assert bot.status == "active"


def test_reactivate_a_live_bot_after_a_good_ping(api, user):
    bot = BotFactory(owner=user, status="suspended", consecutive_faulty_games=5)
    with sdk_bot(bot.signing_secret) as running:
        Bot.objects.filter(pk=bot.pk).update(endpoint_url=running.url)
        response = api.post(url(bot, "reactivate"))
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["status_reason"]) == ("active", "")
    bot.refresh_from_db()
    assert (bot.status, bot.consecutive_faulty_games, bot.last_ping_ok) == ("active", 0, True)


def test_reactivate_refuses_a_bot_that_does_not_answer(api, user):
    bot = BotFactory(
        owner=user,
        status="suspended",
        status_reason="5 faulty games",
        endpoint_url=f"http://127.0.0.1:{unused_port()}/",
    )
    response = api.post(url(bot, "reactivate"))
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "ping_failed"
    assert "connection_error" in body["detail"]
    bot.refresh_from_db()
    assert (bot.status, bot.status_reason, bot.last_ping_ok) == (
        "suspended",
        "5 faulty games",
        False,
    )


def test_reactivate_a_pull_bot_needs_no_ping(api, user):
    bot = BotFactory(owner=user, mode="pull", endpoint_url="", status="suspended")
    assert api.post(url(bot, "reactivate")).json()["status"] == "active"


def test_a_bot_the_staff_disabled_stays_disabled(api, user):
    bot = BotFactory(owner=user, status="disabled", status_reason="abusive names")
    for action in ("reactivate", "suspend"):
        response = api.post(url(bot, action))
        assert response.status_code == 409
        assert response.json()["code"] == "disabled"
        assert "abusive names" in response.json()["detail"]
    bot.refresh_from_db()
    assert bot.status == "disabled"


# ------------------------------------------------------ pull token auth
class WhoAmI(APIView):
    authentication_classes = [BotTokenAuthentication]

    def get(self, request):
        from rest_framework.response import Response

        return Response({"user": request.user.pk, "bot": request.auth.pk})


def test_pull_token_authentication_hook_names_the_bot():
    bot = BotFactory(mode="pull", endpoint_url="")
    token = services.rotate_pull_token(bot)
    factory = APIRequestFactory()
    ok = WhoAmI.as_view()(factory.get("/", HTTP_AUTHORIZATION=f"Bot {token}"))
    assert ok.data == {"user": bot.owner_id, "bot": bot.pk}
    for header in ("Bot wrong", "Bot", f"Bot {token} extra", f"Token {token}"):
        refused = WhoAmI.as_view()(factory.get("/", HTTP_AUTHORIZATION=header))
        assert refused.status_code in (401, 403), header
    # a bot switched to push loses its token
    services.update_bot(bot, {"mode": "push", "endpoint_url": "http://127.0.0.1:9/"})
    gone = WhoAmI.as_view()(factory.get("/", HTTP_AUTHORIZATION=f"Bot {token}"))
    assert gone.status_code == 401
