"""The organiser reviews a round, swaps two entrants, releases it and adjudicates a game,
in a real browser on the admin (#31, point 5).

Pull bots are the entrants, so the released games wait for their moves and the
test decides what happens to them. Screenshots go to ``$HM_ARTEFACTS/review``
(else a temporary directory the test prints).
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from games.models import Game
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.person import choose, click_button
from tests.browser.site import admin_messages, sign_in, wait_for
from tests.factories import BotFactory, UserFactory
from tournaments import events
from tournaments.models import Adjudication, Round, Table, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "review"


def tables(event: Tournament) -> list[list[int]]:
    rows = Table.objects.filter(round__tournament=event).order_by("number")
    return [[int(key) for key in seats] for seats in rows.values_list("seats", flat=True)]


def test_the_organiser_reviews_swaps_releases_and_adjudicates(server, shots) -> None:
    organiser = UserFactory(username="organiser", admin=True, password=None)
    event = Tournament.objects.create(
        name="Review night", engine="manila", format="swiss", table_size=3, min_table_size=3,
        rounds=2, review_rounds=True, move_time_ms=600_000, organiser=organiser,
    )  # fmt: skip
    events.open_entries(event)
    owners = [UserFactory(username=f"owner{n}", password=None) for n in range(3)]
    for n in range(6):
        bot = BotFactory(owner=owners[n % 3], name=f"rex{n}", mode="pull", endpoint_url="")
        events.enter(event, bot.competitor, by=bot.owner)
    events.start(event)
    (a, b, c), (d, e, f) = tables(event)
    owner = dict(event.entrants.values_list("pk", "competitor__user_id"))
    # A swap that seats no owner twice at a table (such a swap is refused: test_review.py).
    b, e = next(
        (x, y)
        for x in (a, b, c)
        for y in (d, e, f)
        if all(owner[z] != owner[x] for z in (d, e, f) if z != y)
        and all(owner[z] != owner[y] for z in (a, b, c) if z != x)
    )
    a, c = [k for k in tables(event)[0] if k != b]
    d, f = [k for k in tables(event)[1] if k != e]
    change = f"{server}/admin/tournaments/tournament/{event.pk}/change/"

    with start(1280, 1000) as browser:
        browser.get(f"{server}/healthz")
        sign_in(browser, organiser)
        browser.get(change)
        assert "Review round 1" in browser.page_source
        page_screenshot(browser, shots / "review-proposed.png")

        before = tables(event)
        choose(browser, "id_first", str(a))
        choose(browser, "id_second", str(c))
        click_button(browser, "Swap them")
        wait_for(lambda: admin_messages(browser), "the refusal")
        assert "a swap exchanges entrants of two different tables" in admin_messages(browser)[0]
        assert tables(event) == before, "a refused swap changes nothing"

        choose(browser, "id_first", str(b))
        choose(browser, "id_second", str(e))
        click_button(browser, "Swap them")
        wait_for(lambda: "Swapped in round 1." in admin_messages(browser), "the swap")
        swapped = tables(event)
        assert e in swapped[0] and b in swapped[1] and {a, c} < set(swapped[0])
        page_screenshot(browser, shots / "review-swapped.png")

        click_button(browser, "Release round 1")
        wait_for(lambda: any("is released" in m for m in admin_messages(browser)), "the release")
        assert Round.objects.get(tournament=event, number=1).status == Round.Status.RUNNING
        games = list(Game.objects.filter(tournament=event).order_by("pk"))
        assert len(games) == 2 and "Review round 1" not in browser.page_source

        stuck = games[0]
        browser.find_element(By.CSS_SELECTOR, f"a[href$='/games/{stuck.pk}/adjudicate/']").click()
        wait_for(lambda: browser.find_elements(By.NAME, "ranks"), "the adjudication form")
        browser.find_element(By.NAME, "ranks").send_keys("2, 1, 3")
        browser.find_element(By.NAME, "reason").send_keys("the bot's host went down")
        page_screenshot(browser, shots / "adjudicate-form.png")
        browser.find_element(
            By.CSS_SELECTOR, "input[type=submit][value='Record this result']"
        ).click()
        wait_for(lambda: any("is adjudicated" in m for m in admin_messages(browser)), "the result")
        judged = Adjudication.objects.get(game=stuck)
        assert (judged.ranks, judged.by) == ([2, 1, 3], organiser)
        stuck.refresh_from_db()
        assert stuck.status == Game.Status.ABORTED

        browser.get(f"{server}/games/{stuck.pk}/")
        assert "Adjudicated" in browser.page_source and "the bot's host went down" in (
            browser.page_source
        )
        page_screenshot(browser, shots / "adjudicated-game.png")
        assert console_errors(browser) == []
