"""The bot owner's page /bots/<id>/log/: who may see it, the log, its filters and pages,
the chart's numbers, the Reactivate button, the webhook form, and its query count."""

from __future__ import annotations

import json
import re
import statistics
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from botapi.models import Bot
from botapi.selectors import owner_stats
from games.models import Game, Move
from tests.botapi.owner_fixtures import duelist, game_with_moves, set_created, signed_in
from tests.botapi.servers import MisbehavingServer
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot():
    return duelist()


def log_url(bot: Bot, **query: object) -> str:
    url = reverse("botlog:log", args=[bot.pk])
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return url


def listed_moves(page: str) -> list[tuple[int, int]]:
    """(game, ply) of every move row of the log, in page order."""
    rows = re.findall(r'<details class="log-move[^"]*"[^>]*>(.*?)</details>', page, flags=re.S)
    found = []
    for row in rows:
        game = int(re.search(r'href="/games/(\d+)/"', row).group(1))
        ply = int(re.search(r'<span class="label">ply </span>(\d+)', row).group(1))
        found.append((game, ply))
    return found


# ------------------------------------------------------------------ access
def test_the_owner_sees_the_page(bot) -> None:
    game_with_moves(bot, [{"latency_ms": 12}])
    response = signed_in(bot.owner).get(log_url(bot))
    assert response.status_code == 200
    page = response.content.decode()
    assert "ada/duelist" in page and "12 ms" in page


def test_a_stranger_and_the_staff_get_the_404_of_a_missing_bot(bot) -> None:
    missing = Bot.objects.order_by("-pk").first().pk + 100
    for user in (UserFactory(password=None), UserFactory(password=None, admin=True)):
        client = signed_in(user)
        theirs = client.get(log_url(bot))
        nobodys = client.get(reverse("botlog:log", args=[missing]))
        assert theirs.status_code == nobodys.status_code == 404
        assert theirs.content == nobodys.content
        for name in ("reactivate", "webhook"):
            assert client.post(reverse(f"botlog:{name}", args=[bot.pk])).status_code == 404
    bot.refresh_from_db()
    assert bot.alert_webhook_url == ""


def test_an_anonymous_visitor_is_sent_to_sign_in_for_any_id(bot, client) -> None:
    for bot_id in (bot.pk, bot.pk + 100):
        response = client.get(reverse("botlog:log", args=[bot_id]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))


def test_me_links_each_bot_to_its_page(bot) -> None:
    page = signed_in(bot.owner).get(reverse("people:me")).content.decode()
    assert f'href="{log_url(bot)}"' in page


# --------------------------------------------------------- log and filters
def test_only_the_bots_own_moves_are_listed_with_excerpts_newest_first(bot) -> None:
    older = game_with_moves(bot, [{"latency_ms": 5}, {"latency_ms": 6}])
    newer = game_with_moves(
        bot,
        [{"latency_ms": 7, "reply_excerpt": '{"action_index": 0}'}],
        seat=1,
    )
    page = signed_in(bot.owner).get(log_url(bot)).content.decode()
    assert listed_moves(page) == [(newer.pk, 0), (older.pk, 1), (older.pk, 0)]
    assert "SECRET-OF-THE-OTHER-SEAT" not in page  # the other seat's excerpts
    assert "the other seat&#x27;s fault" not in page
    assert "{&quot;action_index&quot;: 0}" in page  # the reply excerpt, escaped
    assert "<h3>Request</h3>" in page  # collapsed under its move


def test_filters_by_fault_kind_any_fault_and_game(bot) -> None:
    first = game_with_moves(
        bot,
        [
            {"latency_ms": 5},
            {
                "latency_ms": 3000,
                "source": "default",
                "fault_kind": "timeout",
                "fault_detail": "slow",
            },
            {"latency_ms": 4, "source": "default", "fault_kind": "illegal_action"},
        ],
    )
    second = game_with_moves(
        bot, [{"latency_ms": 9, "source": "default", "fault_kind": "timeout"}, {"latency_ms": 8}]
    )
    client = signed_in(bot.owner)
    page = client.get(log_url(bot, fault="timeout")).content.decode()
    assert listed_moves(page) == [(second.pk, 0), (first.pk, 1)]
    page = client.get(log_url(bot, fault="any")).content.decode()
    assert listed_moves(page) == [(second.pk, 0), (first.pk, 2), (first.pk, 1)]
    page = client.get(log_url(bot, game=first.pk)).content.decode()
    assert listed_moves(page) == [(first.pk, 2), (first.pk, 1), (first.pk, 0)]
    page = client.get(log_url(bot, game=first.pk, fault="illegal_action")).content.decode()
    assert listed_moves(page) == [(first.pk, 2)]
    page = client.get(log_url(bot, fault="no-such-kind")).content.decode()
    assert "fault:" in page and len(listed_moves(page)) == 5  # refused, and nothing filtered


def test_pages_follow_the_cursor_without_gaps_or_repeats(bot) -> None:
    games = [game_with_moves(bot, [{"latency_ms": i} for i in range(30)]) for _ in range(4)]
    client = signed_in(bot.owner)
    seen: list[tuple[int, int]] = []
    url = log_url(bot)
    for _ in range(10):
        page = client.get(url).content.decode()
        seen += listed_moves(page)
        older = re.search(r'<a href="\?([^"]*)#log">Older', page)
        if older is None:
            break
        url = log_url(bot) + "?" + older.group(1).replace("&amp;", "&")
    expected = [(g.pk, ply) for g in reversed(games) for ply in reversed(range(30))]
    assert seen == expected
    assert len(listed_moves(client.get(log_url(bot)).content.decode())) == 50


def test_the_page_costs_the_same_queries_for_a_small_and_a_large_log(bot) -> None:
    client = signed_in(bot.owner)
    game_with_moves(bot, [{"latency_ms": 3, "fault_kind": "timeout"}])

    def queries(**query: object) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(log_url(bot, **query)).status_code == 200
        return len(captured)

    small = (queries(), queries(fault="any"))
    for _ in range(12):
        game_with_moves(
            bot, [{"latency_ms": i, "fault_kind": "timeout" * (i % 2)} for i in range(20)]
        )
    version = BotFactory(owner=bot.owner, previous_version=bot)
    assert version.previous_version_id == bot.pk
    large = (queries(), queries(fault="any"))
    assert small[0] + 1 == large[0]  # the head-to-head query appears with a second version
    assert small[1] + 1 == large[1]
    assert large[0] <= 12


# ------------------------------------------------------------------ chart
def test_the_chart_is_the_percentiles_and_fault_rate_of_each_day(bot) -> None:
    now = timezone.now()
    days = {
        0: [10, 20, 30, 40, 1000],
        1: [5],
        3: [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100],
    }
    faults = {0: 2, 1: 0, 3: 5}
    for ago, latencies in days.items():
        moves = [
            {"latency_ms": value, "fault_kind": "timeout" if i < faults[ago] else ""}
            for i, value in enumerate(latencies)
        ]
        moves.append({"latency_ms": None, "source": "default", "fault_kind": "forfeited"})
        set_created(game_with_moves(bot, moves), now - timedelta(days=ago))
    old = game_with_moves(bot, [{"latency_ms": 1}])
    set_created(old, now - timedelta(days=owner_stats.WINDOW_DAYS + 1))

    stats = owner_stats.daily_stats(bot, now)
    assert len(stats) == owner_stats.WINDOW_DAYS
    assert stats[-1].day == timezone.localdate(now)
    by_day = {d.day: d for d in stats}
    for ago, latencies in days.items():
        day = by_day[timezone.localdate(now - timedelta(days=ago))]
        if len(latencies) > 1:
            cuts = statistics.quantiles(latencies, n=100, method="inclusive")
            p50, p95 = cuts[49], cuts[94]
        else:
            p50 = p95 = latencies[0]
        assert day.p50_ms == pytest.approx(p50)
        assert day.p95_ms == pytest.approx(p95)
        assert (day.moves, day.faults) == (len(latencies), faults[ago])
    assert sum(d.moves for d in stats) == sum(len(v) for v in days.values())

    page = signed_in(bot.owner).get(log_url(bot)).content.decode()
    embedded = re.search(
        r'<script id="owner-chart-data" type="application/json">(.*?)</script>', page
    )
    chart = json.loads(embedded.group(1))
    assert chart == json.loads(json.dumps(owner_stats.chart_data(owner_stats.daily_stats(bot))))
    assert chart["fault_rate"][-1] == pytest.approx(40.0)
    assert "bots/owner.js" in page and "uPlot.iife.min.js" in page


def test_the_python_percentile_is_postgresqls_percentile_cont() -> None:
    values = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
    ordered = sorted(values)
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    assert owner_stats.percentile_cont(ordered, 0.5) == pytest.approx(cuts[49])
    assert owner_stats.percentile_cont(ordered, 0.95) == pytest.approx(cuts[94])
    assert owner_stats.percentile_cont([], 0.5) is None


# ------------------------------------------------------------- reactivate
@pytest.fixture
def server():
    running = MisbehavingServer().start()
    yield running
    running.stop()


def suspend(bot: Bot, endpoint: str) -> None:
    Bot.objects.filter(pk=bot.pk).update(
        status=Bot.Status.SUSPENDED,
        status_reason="suspended automatically after 5 faulty games in a row",
        consecutive_faulty_games=5,
        endpoint_url=endpoint,
    )


def test_reactivate_pings_and_makes_the_bot_active(bot, server, settings) -> None:
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    suspend(bot, server.url("/ping"))
    client = signed_in(bot.owner)
    page = client.get(log_url(bot)).content.decode()
    assert "Reactivate</button>" in page and "5 faulty games in a row" in page
    response = client.post(reverse("botlog:reactivate", args=[bot.pk]), follow=True)
    bot.refresh_from_db()
    assert (bot.status, bot.consecutive_faulty_games) == (Bot.Status.ACTIVE, 0)
    assert len(server.requests_to("/ping")) == 1
    page = response.content.decode()
    assert "is active again" in page and "Reactivate</button>" not in page


def test_a_refused_ping_leaves_the_bot_suspended_and_says_why(bot, server, settings) -> None:
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    suspend(bot, server.url("/error"))
    response = signed_in(bot.owner).post(reverse("botlog:reactivate", args=[bot.pk]), follow=True)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.SUSPENDED
    page = response.content.decode()
    assert "Not reactivated: the bot did not answer a ping" in page
    assert "HTTP 500" in page


def test_the_button_needs_a_csrf_token(bot) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(bot.owner)
    assert client.post(reverse("botlog:reactivate", args=[bot.pk])).status_code == 403


# ----------------------------------------------------------------- webhook
def test_the_webhook_url_is_checked_by_the_ssrf_guard(bot, settings) -> None:
    settings.BOT_ENDPOINT_ALLOW = ["loopback"]
    client = signed_in(bot.owner)
    url = reverse("botlog:webhook", args=[bot.pk])
    page = client.post(url, {"alert_webhook_url": "http://10.0.0.7/hook"}, follow=True)
    assert "Webhook not saved" in page.content.decode()
    bot.refresh_from_db()
    assert bot.alert_webhook_url == ""
    client.post(url, {"alert_webhook_url": "http://127.0.0.1:8123/hook"})
    bot.refresh_from_db()
    assert bot.alert_webhook_url == "http://127.0.0.1:8123/hook"
    client.post(url, {"alert_webhook_url": ""})
    bot.refresh_from_db()
    assert bot.alert_webhook_url == ""


def test_moves_of_the_bot_are_all_of_its_seats_moves(bot) -> None:
    """Self-play: a bot holding two seats sees both seats' moves, each once."""
    game = game_with_moves(bot, [{"latency_ms": 1}], other_moves=0)
    Move.objects.filter(game=game, seat=1).delete()
    from games.models import Seat

    Seat.objects.filter(game=game, position=1).update(competitor=bot.competitor)
    Move.objects.create(game=game, ply=5, seat=1, action={}, source="bot", latency_ms=2)
    page = signed_in(bot.owner).get(log_url(bot)).content.decode()
    assert listed_moves(page) == [(game.pk, 5), (game.pk, 0)]


# ------------------------------------------------------------------ the page cache
def _csrf_secrets(page: str) -> set[str]:
    from django.middleware.csrf import _unmask_cipher_token

    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    return {_unmask_cipher_token(token) for token in tokens}


@pytest.mark.usefixtures("page_cache")
def test_the_cached_sections_follow_every_new_move(bot) -> None:
    game = game_with_moves(bot, [{"latency_ms": 5}], status="running")
    client = signed_in(bot.owner)

    def queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(log_url(bot))
        assert response.status_code == 200
        return len(captured), response.content.decode()

    cold, first = queries()
    warm, again = queries()
    assert warm < cold and listed_moves(again) == listed_moves(first) == [(game.pk, 0)]
    # A move of the running game (the referee raises next_ply with it): shown at once.
    Move.objects.create(game=game, ply=game.next_ply, seat=0, action={}, source="bot", latency_ms=7)
    Game.objects.filter(pk=game.pk).update(next_ply=game.next_ply + 1)
    _, after = queries()
    assert listed_moves(after) == [(game.pk, game.next_ply), (game.pk, 0)]
    # A new game of the bot, running: its seat's moves change the marker too.
    other = game_with_moves(bot, [{"latency_ms": 9}], status="running")
    _, latest = queries()
    assert listed_moves(latest)[0] == (other.pk, 0)


@pytest.mark.usefixtures("page_cache")
def test_the_cached_sections_are_never_shown_to_anyone_else(bot) -> None:
    game_with_moves(bot, [{"latency_ms": 5, "reply_excerpt": "OWNERS-EYES-ONLY"}])
    owner = signed_in(bot.owner)
    assert "OWNERS-EYES-ONLY" in owner.get(log_url(bot)).content.decode()
    for user in (UserFactory(password=None), UserFactory(password=None, admin=True)):
        response = signed_in(user).get(log_url(bot))
        assert response.status_code == 404 and b"OWNERS-EYES-ONLY" not in response.content
    assert Client().get(log_url(bot)).status_code == 302


@pytest.mark.usefixtures("page_cache")
def test_each_owner_gets_their_own_forms_and_header(bot) -> None:
    """The fragment holds no form that posts: the page's CSRF tokens are the viewer's."""
    game_with_moves(bot, [{"latency_ms": 5}])
    client = signed_in(bot.owner)
    client.get(log_url(bot))
    page = client.get(log_url(bot)).content.decode()
    assert _csrf_secrets(page) == {client.cookies["csrftoken"].value}
    assert "ada" in page and 'action="/bots/' in page
    theirs = BotFactory(owner=UserFactory(username="bea", password=None), name="other")
    game_with_moves(theirs, [{"latency_ms": 6}])
    bea = signed_in(theirs.owner)
    bea.get(log_url(theirs))
    page = bea.get(log_url(theirs)).content.decode()
    assert _csrf_secrets(page) == {bea.cookies["csrftoken"].value}
    assert "ada/duelist" not in page and "bea/other" in page
