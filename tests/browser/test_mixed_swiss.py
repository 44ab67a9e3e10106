"""Issue #31's "Done when" scenario in a real browser: a mixed Swiss of three people and six
bots in a "bots and people" league, each round reviewed and released in the admin, the people
playing by clicks while the example bots play theirs, and standings recomputed from the public
game records equal to the page's.

The event is created, its entries opened, the bots entered and the event started through
``tournaments.events`` (as in ``test_review_round``). Each person enters themselves with the
tournament page's button, in their own browser session (consent to bot opponents given
beforehand). "Review each round" stays on: the organiser, in a fourth session on the admin,
swaps two entrants of round 1 (a person of a table with two people for a bot), releases it,
and releases round 2 as proposed. The people's pages click whenever it is their turn (people
may share a table); the six bots are the example bots the test serves (one owner, so the event
allows same-owner tables). At the end, the standings page equals the standings recomputed
from the public API alone: the rounds' tables and every game's record, replayed, fed to the
pure ``tournaments.formats.standings``. Screenshots go to ``$HM_ARTEFACTS/mixed-swiss``.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from contextlib import ExitStack

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

import engines
from games.models import Game, Move
from harbormaster.demo import example_bots
from people import services as person_services
from tests.browser.chromium import console_errors, needs_chromium, page_screenshot, start
from tests.browser.person import CLICK_GAP_S, choose, click_button, my_turn_controls, next_ply
from tests.browser.site import admin_messages, sign_in, wait_for
from tests.factories import UserFactory
from tournaments import events
from tournaments.formats import base as fmt
from tournaments.formats.standings import standings
from tournaments.models import League, Round, Table, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, needs_chromium]
SHOTS = "mixed-swiss"
ROUNDS = 2
PEOPLE = ("ann", "ben", "cat")
ROUND_LIMIT_S = 900


def seats(event: Tournament, number: int) -> list[list[int]]:
    tables = Table.objects.filter(round__tournament=event, round__number=number)
    return [
        [int(key) for key in t] for t in tables.order_by("number").values_list("seats", flat=True)
    ]


def play_round(pages: list[tuple[WebDriver, int]], rng: random.Random) -> int:
    """Each person's page clicks a random legal control whenever it is their turn, until
    every person's game is over (several people may share a table); the number of clicks.

    The bots answer their own turns meanwhile, over loopback HTTP, as on the demo.
    """
    clicks, deadline = 0, time.monotonic() + ROUND_LIMIT_S
    while True:
        playing = 0
        for browser, game_id in pages:
            found = my_turn_controls(browser, game_id)
            if found == "over":
                continue
            playing += 1
            if not found:
                continue
            before = next_ply(game_id)
            time.sleep(CLICK_GAP_S)
            rng.choice(found).click()
            clicks += 1
            wait_for(lambda b=before, g=game_id: next_ply(g) > b, "the clicked move", 30)
        if not playing:
            return clicks
        assert time.monotonic() < deadline, f"the round still runs after {clicks} clicks"
        time.sleep(0.05)


def api(server: str, path: str) -> object:
    with urllib.request.urlopen(f"{server}/api/v1/{path}", timeout=20) as answer:
        return json.load(answer)


def signed_in(browser: WebDriver, server: str, user) -> None:
    browser.delete_all_cookies()
    browser.get(f"{server}/healthz")
    sign_in(browser, user)


def release(browser: WebDriver, server: str, event: Tournament, number: int) -> None:
    """The organiser (signed in) releases round ``number`` from the tournament's admin page."""
    wait_for(
        lambda: Round.objects.filter(
            tournament=event, number=number, status=Round.Status.PROPOSED
        ).exists(),
        f"round {number} proposed",
        120,
    )
    browser.get(f"{server}/admin/tournaments/tournament/{event.pk}/change/")
    assert f"Review round {number}" in browser.page_source
    click_button(browser, f"Release round {number}")
    wait_for(lambda: any("is released" in m for m in admin_messages(browser)), "the release")


def recomputed(server: str, event: Tournament) -> set[tuple]:
    """(name, rank, points, tablemates' points, game score) of every entrant, from the public
    API's rounds and game records alone: each record replayed, its outcome checked, fed to the
    pure formats' standings."""
    detail = api(server, f"tournaments/{event.pk}/")
    names = {e["id"]: e["name"] for e in detail["entrants"]}
    results, byes = [], []
    for played in api(server, f"tournaments/{event.pk}/rounds/"):
        byes += [fmt.Bye(round=played["number"], key=b["id"]) for b in played["byes"]]
        for table in played["tables"]:
            (game,) = table["games"]
            record = api(server, f"games/{game['id']}/record/")
            final = engines.replay(
                record["engine"], record["num_players"], record["options"],
                [(m["seat"], m["action"]) for m in record["moves"]],
            )  # fmt: skip
            assert not any(s["forfeited"] for s in record["seats"])
            assert record["outcome"]["ranks"] == list(final.outcome()["ranks"])
            keys = [s["entrant"]["id"] for s in sorted(table["seats"], key=lambda s: s["position"])]
            assert [names[k] for k in keys] == [s["competitor"] for s in record["seats"]]
            results.append(
                fmt.Result(
                    round=played["number"], seats=tuple(keys),
                    ranks=tuple(record["outcome"]["ranks"]),
                    scores=tuple(record["outcome"]["scores"]),
                )
            )  # fmt: skip
    settings = fmt.Settings(
        table_size=detail["table_size"], min_table_size=detail["min_table_size"],
        rounds=ROUNDS, tie_breaks=tuple(event.tie_breaks or ()),
    )  # fmt: skip
    entrants = [fmt.Entrant(key=key, seed=0) for key in names]
    history = fmt.History(results=tuple(results), byes=tuple(byes))
    return {
        (
            names[s.key],
            s.rank,
            *(round(x, 2) for x in (s.points, s.tablemates_points, s.game_score)),
        )
        for s in standings(entrants, history, settings)
    }


def page_standings(browser: WebDriver) -> set[tuple]:
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#standings .standings-table tbody tr'),"
        " r => Array.from(r.cells, c => c.textContent.trim()));"
    )
    return {
        (row[1].replace("\u200b", ""), int(row[0]), *(float(x) for x in row[2:5])) for row in rows
    }


def test_a_mixed_swiss_of_people_and_bots_reviewed_played_and_recomputed(server, shots) -> None:
    organiser = UserFactory(username="organiser", admin=True, password=None)
    league = League.objects.create(
        name="Harbour mixed", slug="harbour-mixed", engine="manila", pool=League.Pool.MIXED
    )
    event = Tournament.objects.create(
        name="Mixed night", league=league, engine="manila", format="swiss", table_size=3,
        min_table_size=3, rounds=ROUNDS, review_rounds=True, allow_same_owner_tables=True,
        move_time_ms=900_000, organiser=organiser,
    )  # fmt: skip
    events.open_entries(event)
    people = []
    for name in PEOPLE:
        user = UserFactory(username=name, password=None)
        profile = person_services.ensure_person(user)
        profile.accepts_bot_opponents = True
        profile.save(update_fields=["accepts_bot_opponents"])
        people.append(user)
    page = f"{server}/tournaments/{event.pk}/"
    with example_bots() as bots, ExitStack() as stack:
        desk = stack.enter_context(start(1280, 1000))
        pages = {user: stack.enter_context(start(1280, 1000)) for user in people}
        for user, browser in pages.items():  # each person enters themselves with the page's button
            signed_in(browser, server, user)
            browser.get(page)
            click_button(browser, "Enter Mixed night")
            wait_for(lambda b=browser: "You are entered in Mixed night" in b.page_source, "entry")
        page_screenshot(browser, shots / "entered.png")
        for bot in bots:
            events.enter(event, bot.competitor, by=bot.owner)
        assert event.entrants.filter(status="active").count() == 9
        events.start(event)

        signed_in(desk, server, organiser)
        desk.get(f"{server}/admin/tournaments/tournament/{event.pk}/change/")
        assert "Review round 1" in desk.page_source
        page_screenshot(desk, shots / "round-1-proposed.png")
        # Swap a person of the table with the most people with a bot of the one with the fewest
        # (two bots when the proposal seats one person at each table: it depends on the seed).
        person = set(event.entrants.filter(competitor__kind="person").values_list("pk", flat=True))
        proposed = seats(event, 1)
        crowded = max(proposed, key=lambda t: len(person & set(t)))
        empty = min((t for t in proposed if t is not crowded), key=lambda t: len(person & set(t)))
        movers = person if len(person & set(crowded)) > 1 else set(crowded) - person
        first = next(k for k in crowded if k in movers)
        second = next(k for k in empty if k not in person)
        choose(desk, "id_first", str(first))
        choose(desk, "id_second", str(second))
        click_button(desk, "Swap them")
        wait_for(lambda: "Swapped in round 1." in admin_messages(desk), "the swap")
        swapped = seats(event, 1)
        assert swapped[proposed.index(crowded)] == [second if k == first else k for k in crowded]
        assert swapped[proposed.index(empty)] == [first if k == second else k for k in empty]
        page_screenshot(desk, shots / "round-1-swapped.png")

        for number in range(1, ROUNDS + 1):
            release(desk, server, event, number)
            games = Game.objects.filter(tournament=event, table__round__number=number)
            assert games.count() == 3
            playing = []
            for user, browser in pages.items():
                (game,) = games.filter(seats__competitor__user=user)
                browser.get(f"{server}/games/{game.pk}/play/")
                playing.append((browser, game.pk))
            assert play_round(playing, random.Random(number)) > 0
            page_screenshot(pages[people[0]], shots / f"round-{number}-over.png")
            for browser in pages.values():
                assert console_errors(browser) == []

        wait_for(
            lambda: Tournament.objects.get(pk=event.pk).status == Tournament.Status.FINISHED,
            "the event to finish",
            120,
        )
        played = Game.objects.filter(tournament=event)
        assert played.count() == 3 * ROUNDS
        assert set(played.values_list("status", flat=True)) == {Game.Status.FINISHED}
        for game in played:  # every person clicked their moves, every bot answered its own
            for seat in game.seats.select_related("competitor"):
                source = "person" if seat.competitor.kind == "person" else "bot"
                moves = Move.objects.filter(game=game, seat=seat.position)
                assert set(moves.values_list("source", flat=True)) == {source}, seat
        desk.get(page)
        page_screenshot(desk, shots / "finished.png")
        shown = page_standings(desk)
        assert len(shown) == 9
        assert shown == recomputed(server, event)
