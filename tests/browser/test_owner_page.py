"""The bot owner's page in a real browser (uvicorn on the test database, Chromium).

At 390 px (a phone) and 1280 px: the chart is drawn by uPlot, the page does
not scroll sideways, a move's request and reply open, and no script error is
logged. Screenshots go to ``$HM_ARTEFACTS/botlog`` (else a temporary directory
the test prints).
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from botapi.models import Bot, BotAlert
from ratings.models import Rating
from ratings.scopes import global_scope
from tests.botapi.owner_fixtures import game_with_moves, set_created
from tests.browser.chromium import (
    console_errors,
    needs_chromium,
    page_screenshot,
    start,
    window_screenshot,
)
from tests.browser.site import sign_in, wait_for
from tests.factories import BotFactory, UserFactory, finished_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "botlog"


def a_busy_bot() -> Bot:
    """A suspended bot with a fortnight of games, faults, two versions and an alert."""
    owner = UserFactory(username="ada-lovelace", password=None)
    old = BotFactory(owner=owner, name="harbour-pilot")
    bot = BotFactory(
        owner=owner,
        name="harbour-pilot-with-a-long-name",
        previous_version=old,
        endpoint_url="https://bots.example.org/harbour-pilot/v2/act",
        status=Bot.Status.SUSPENDED,
        status_reason="suspended automatically after 5 faulty games in a row; see the faults in "
        "its games' move logs, fix the bot, then reactivate",
        consecutive_faulty_games=5,
        last_ping_at=timezone.now(),
        last_ping_ok=False,
        last_ping_detail="timeout: no complete reply within 3000 ms (ReadTimeout)",
        last_ping_latency_ms=3001,
    )
    now = timezone.now()
    legal = [{"type": "bid", "amount": n} for n in range(40)]
    game = {"id": 1, "engine": "manila"}
    request = json.dumps(
        {"protocol": 1, "kind": "act", "request_id": "a" * 32, "game": game, "legal_actions": legal}
    )
    for day in range(14):
        moves = []
        for i in range(12):
            faulty = (day * 7 + i) % 11 == 0
            moves.append(
                {
                    "latency_ms": 40 + (day * 13 + i * 29) % 300 + (2500 if faulty else 0),
                    "source": "default" if faulty else "bot",
                    "fault_kind": "timeout" if faulty else "",
                    "fault_detail": "no complete reply within 2000 ms (ReadTimeout: timed out)"
                    if faulty
                    else "",
                    "request_excerpt": request,
                    "reply_excerpt": '{"request_id": "' + "a" * 32 + '", "action_index": 3}',
                }
            )
        set_created(game_with_moves(bot, moves), now - timedelta(days=day))
    scope = global_scope("manila")
    for version, elo, games in ((old, 1480.0, 31), (bot, 1522.0, 14)):
        Rating.objects.create(
            competitor=version.competitor, scope=scope, system="elo", value=elo, score=elo,
            games=games,
        )  # fmt: skip
    finished_game([old.competitor, bot.competitor], [2, 1])
    BotAlert.objects.create(
        bot=bot, key="suspension:x", kind=BotAlert.Kind.SUSPENSION, mailed=True,
        webhook_result="failed: connection_error: ConnectError: [Errno 111] Connection refused",
    )  # fmt: skip
    return bot


@pytest.mark.parametrize("width", [390, 1280])
def test_the_owner_page_reads_well_on_a_phone_and_a_desktop(server, shots, width) -> None:
    bot = a_busy_bot()
    with start(width, 1000, phone=width < 500) as browser:
        browser.get(f"{server}/healthz")
        sign_in(browser, bot.owner)
        browser.get(f"{server}/bots/{bot.pk}/log/")
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#owner-chart canvas"), "the chart")
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        culprits = browser.execute_script(
            "return [...document.querySelectorAll('main *')].filter(e => "
            "e.getBoundingClientRect().right > arguments[0]).slice(0, 8)"
            ".map(e => e.tagName + '.' + e.className)",
            width,
        )
        assert wide <= width, f"the page scrolls sideways at {width}px ({wide}px): {culprits}"
        page_screenshot(browser, shots / f"owner-{width}.png")
        window_screenshot(browser, shots / f"owner-{width}-top.png")
        browser.find_elements(By.CSS_SELECTOR, ".log-move summary .fault-detail")[0].click()
        assert browser.execute_script("return document.querySelector('.log-move.faulty').open")
        browser.execute_script("document.getElementById('log').scrollIntoView()")
        window_screenshot(browser, shots / f"owner-{width}-log.png")
        for section in ("chart", "versions"):
            browser.execute_script(f"document.getElementById('{section}').scrollIntoView()")
            window_screenshot(browser, shots / f"owner-{width}-{section}.png")
        assert console_errors(browser) == []
