"""The tournament pages: the list, one tournament at every stage, and what stays secret.

Events are built straight into rows (``builders.make_event``: real Swiss
pairings, finished and running games); the pages are read through the test
client as a visitor would.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import CompetitorFactory, LeagueFactory
from tests.tournaments.pages.builders import make_event, withdraw
from tournaments.events import standings_table as event_standings
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def text(html: bytes) -> str:
    """The page's words, tags dropped and spaces squeezed (a name's <wbr> joins its parts)."""
    words = re.sub(r"<[^>]+>", " ", html.decode().replace("<wbr>", ""))
    return re.sub(r"\s+", " ", words).strip()


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


# --------------------------------------------------------------------- list
def test_the_list_without_any_tournament_says_so(client: Client) -> None:
    html = page(client, "/tournaments/")
    assert "No tournament is open, running or finished yet." in html
    assert "No league yet." in html


def test_the_list_shows_running_events_first_and_no_draft(client: Client) -> None:
    league = LeagueFactory(name="Harbour league", slug="harbour")
    finished = make_event(name="Spring open", league=league)
    running = make_event(name="Summer cup", played=1, under_way=True)
    opened = make_event(name="Autumn cup", played=0, rounds=3)
    draft = make_event(name="Secret draft", played=0, status=Tournament.Status.DRAFT)
    html = page(client, "/tournaments/")
    words = text(html.encode())
    assert draft.tournament.name not in html
    positions = [words.index(e.tournament.name) for e in (running, opened, finished)]
    assert positions == sorted(positions), "running first, then entries open, then finished"
    assert f'href="/tournaments/{running.tournament.pk}/"' in html
    assert "Summer cup running Manila · Swiss · tables of 3 Entrants: 9 Round: 2 of 3" in words
    assert "Autumn cup entries open" in words and "3 planned" in words
    assert f'href="/leagues/{league.slug}/"' in html
    assert 'href="/tournaments/"' in html, "the site's menu links the list"


def test_a_draft_is_not_public(client: Client) -> None:
    draft = make_event(played=0, status=Tournament.Status.DRAFT).tournament
    assert client.get(f"/tournaments/{draft.pk}/").status_code == 404
    assert client.get(f"/tournaments/{draft.pk}/standings.csv").status_code == 404
    assert client.get("/tournaments/999999/").status_code == 404


# ------------------------------------------------------------- one tournament
def test_entries_open_without_entrants(client: Client) -> None:
    event = make_event(entrants=0, played=0, rounds=3)
    t = event.tournament
    html = page(client, f"/tournaments/{t.pk}/")
    words = text(html.encode())
    assert "entries open" in words and "Entries are open." in words
    assert words.count("No entrant yet.") == 3, "standings, crosstable, entrants"
    assert "The first round is paired when the organiser starts the event." in words
    assert t.seed_commitment in html
    assert t.seed not in html
    assert "Secret while the event is on; revealed when it ends." in words


def test_a_running_event_shows_its_tables_standings_and_hides_the_seed(client: Client) -> None:
    event = make_event(played=2, under_way=True)
    t = event.tournament
    html = page(client, f"/tournaments/{t.pk}/")
    words = text(html.encode())
    assert t.seed not in html, "the event seed never leaves the server while it runs"
    assert t.seed_commitment in html
    assert "round 3 of 3" in words and "Standings (live)" in words
    for game in event.games:
        assert f'href="/games/{game.pk}/"' in html
        assert game.seed not in html, "no game seed on the event page"
    # The running round: its tables with the entrants in seat order, no result yet.
    current = t.rounds_played.get(number=3)
    names = {e.pk: e.competitor.name.replace("/", "/<wbr>") for e in event.entrants}
    section = html[html.index('id="round-3"') : html.index('id="round-2"')]
    for table in current.tables.all():
        seated = [names[key] for key in table.seats]
        found = [section.index(f">{name}<") for name in seated]
        assert found == sorted(found), f"table {table.number} in seat order"
    assert "<th>Place</th>" not in section, "a running table has no result"
    assert "(running)" in section
    # Finished rounds show each table's places, points and scores.
    done = html[html.index('id="round-2"') :]
    assert "<th>Place</th><th>Pts</th><th>Score</th>" in done


def test_a_finished_event_reveals_its_seed_with_how_to_check_it(client: Client) -> None:
    event = make_event()
    t = event.tournament
    html = page(client, f"/tournaments/{t.pk}/")
    words = text(html.encode())
    assert t.seed in html and t.seed_commitment in html
    assert "Standings (final)" in words
    assert "The sha256 of the event seed above equals the commitment." in words
    assert (
        "HMAC-SHA256 keyed with the event seed, of the text harbormaster/game/ROUND/TABLE/0"
        in words
    )
    assert "verify_game" in words
    standings = event_standings.standings(t)
    leader = standings[0]
    row = re.search(
        r"<tr>\s*<td>1</td>\s*<td><a class=\"competitor\" href=\"(.+?)\">(.+?)</a>", html
    )
    assert row and row.group(2) == leader.entrant.name.replace("/", "/<wbr>")
    assert row.group(1) == f"/competitors/{leader.entrant.competitor_id}/", "linked to its page"
    assert f'href="/tournaments/{t.pk}/standings.csv"' in html
    assert "Tablemates" in words and "Game score" in words and "H2H" in words
    assert "Ties are broken by" in words, "the tie-break columns are explained"
    assert 'class="crosstable"' in html and "1\N{EN DASH}0" in html


def test_the_settings_read_as_plain_words(client: Client) -> None:
    event = make_event(entrants=10, table_size=4, min_table_size=3, rounds=2)
    t = event.tournament
    t.move_time_ms, t.time_bank_ms, t.rated = 2500, 30000, True
    t.save()
    words = text(page(client, f"/tournaments/{t.pk}/").encode())
    assert "Format Swiss" in words
    assert "Tables 4 players each (down to 3 when the entrants do not divide evenly)" in words
    assert "Rounds 2" in words
    assert "Time control 2.5 s per move, plus a time bank of 30 s per player and game" in words
    assert "Rated yes" in words and "Duplicate no: one game per table" in words


def test_byes_are_shown_with_their_points(client: Client) -> None:
    event = make_event(entrants=10, table_size=3, rounds=2)
    t = event.tournament
    byes = [key for r in t.rounds_played.all() for key in r.byes]
    assert byes, "10 entrants in tables of exactly 3 leave one out each round"
    names = {e.pk: e.competitor.name for e in event.entrants}
    words = text(page(client, f"/tournaments/{t.pk}/").encode())
    assert "Bye (sat out, 2.67 points each):" in words
    for key in byes:
        assert names[key] in words


def test_withdrawn_entrants_are_marked_with_the_reason(client: Client) -> None:
    event = make_event(played=1, under_way=True)
    gone = withdraw(event, 4, "its server went away")
    t = event.tournament
    html = page(client, f"/tournaments/{t.pk}/")
    words = text(html.encode())
    assert f"{gone.competitor.name} (bot) withdrawn — its server went away" in words
    assert f"{gone.competitor.name} withdrawn" in words, "marked in the standings too"
    assert html.count('<tr class="left">') >= 3, "entrants, standings, crosstable"


@pytest.mark.parametrize(
    ("status", "reason", "shown"),
    [
        ("paused", "a bot owner asked for time", "Paused: a bot owner asked for time"),
        ("cancelled", "the venue flooded", "Cancelled: the venue flooded"),
        ("running", "game 12 cannot finish: every seat faulted", "Held up: game 12 cannot"),
    ],
)
def test_the_status_comes_with_its_reason(client: Client, status, reason, shown) -> None:
    event = make_event(played=1, under_way=True, status=status, status_reason=reason)
    t = event.tournament
    html = page(client, f"/tournaments/{t.pk}/")
    assert shown in text(html.encode())
    if status == "cancelled":
        assert t.seed in html, "a cancelled event is over: its seed is revealed"
    else:
        assert t.seed not in html


def test_entrants_waiting_for_approval_are_not_shown(client: Client) -> None:
    event = make_event(entrants=3, played=0)
    pending = event.entrants[0]
    pending.status = Entrant.Status.PENDING
    pending.save()
    words = text(page(client, f"/tournaments/{event.tournament.pk}/").encode())
    assert pending.competitor.name not in words
    assert event.entrants[1].competitor.name in words


def test_names_are_escaped_and_may_wrap_after_the_owner(client: Client) -> None:
    event = make_event(entrants=3, played=0)
    person = CompetitorFactory(kind="person", name="<b>mal</b>/lory")
    Entrant.objects.create(tournament=event.tournament, competitor=person, seed_order=4)
    html = page(client, f"/tournaments/{event.tournament.pk}/")
    assert "<b>mal</b>" not in html
    assert "&lt;b&gt;mal&lt;/<wbr>b&gt;/<wbr>lory" in html
