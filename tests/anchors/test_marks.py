"""The anchors are marked where ratings are read: leaderboard page, API, bot page, lobby, admin."""

from __future__ import annotations

import pytest
from django.test import Client

from botapi.services.anchors import ensure_anchors
from lobby.selectors import bot_choices
from ratings.models import Rating
from ratings.services.scopes import global_scope
from tests.factories import BotFactory, CompetitorFactory, UserFactory
from tournaments import events
from tournaments.models import Tournament
from web.admin.event_forms import AddEntrantsForm

pytestmark = pytest.mark.django_db


def rate(competitor, score: float) -> None:
    Rating.objects.create(
        competitor=competitor,
        scope=global_scope("manila"),
        system="trueskill",
        value=score + 3,
        sigma=1.0,
        score=score,
        games=12,
    )


@pytest.fixture
def anchors():
    bots = {item.bot.anchor: item.bot for item in ensure_anchors()}
    rate(bots["search-32"].competitor, 20.0)
    rate(bots["random"].competitor, 5.0)
    other = BotFactory(name="mine")
    rate(other.competitor, 12.0)
    rate(CompetitorFactory(kind="person", name="ann"), 9.0)
    return bots, other


def test_the_leaderboard_page_marks_the_anchors_and_no_one_else(client: Client, anchors) -> None:
    bots, other = anchors
    html = client.get("/leaderboards/manila/").content.decode()
    assert html.count('class="tag anchor"') == 2
    for slug in ("search-32", "random"):
        name = bots[slug].competitor.name.replace("/", "/<wbr>")
        row = html[html.index(name) :].split("</tr>")[0]
        assert f'href="/anchors/#{slug}"' in row and ">anchor</a>" in row
    mine = html[html.index(other.competitor.name.replace("/", "/<wbr>")) :].split("</tr>")[0]
    assert "anchor" not in mine


def test_the_leaderboard_api_and_the_open_bots_say_which_anchor(client: Client, anchors) -> None:
    bots, other = anchors
    rows = client.get("/api/v1/leaderboards/manila/").json()["results"]
    marks = {row["name"]: row["anchor"] for row in rows}
    assert marks[bots["search-32"].competitor.name] == "search-32"
    assert marks[bots["random"].competitor.name] == "random"
    assert marks[other.competitor.name] is None and marks["ann"] is None
    listed = client.get("/api/v1/bots/open/?page_size=100")
    by_name = {bot["name"]: bot for bot in listed.json()["results"]}
    assert by_name["anchor-greedy"]["anchor"] == "greedy"
    assert by_name["anchor-greedy"]["house"] and by_name["anchor-greedy"]["challengeable"]


def test_the_anchors_page_and_a_bot_page_explain_them(client: Client, anchors) -> None:
    bots, _other = anchors
    page = client.get("/anchors/").content.decode()
    for slug in ("random", "greedy", "search-8", "search-32"):
        assert f'id="{slug}"' in page
    assert "32 rollouts per decision" in page and "20.00" in page and "not rated yet" in page
    bot = bots["search-8"]
    html = client.get(f"/bots/{bot.owner.username}/{bot.name}/").content.decode()
    assert 'href="/anchors/#search-8"' in html and ">anchor</a>" in html


def test_the_lobby_offers_the_anchors_first(anchors) -> None:
    choices = bot_choices(UserFactory())
    firsts = choices[:4]
    assert {c.name.split("/")[1] for c in firsts} == {
        "anchor-random",
        "anchor-greedy",
        "anchor-search-8",
        "anchor-search-32",
    }
    assert {c.group for c in firsts} == {"House anchors (fixed strength)"}
    assert all("manila" in c.engines for c in firsts)


@pytest.mark.usefixtures("anchors")
def test_the_admins_add_entrants_names_the_anchors() -> None:
    tournament = Tournament.objects.create(
        name="t", engine="manila", organiser=UserFactory(), table_size=3, rounds=1
    )
    form = AddEntrantsForm(tournament=tournament)
    choices = {str(label): value for value, label in form.fields["competitors"].choices}
    label = next(label for label in choices if "(house anchor search-32: " in label)
    organiser = tournament.organiser
    events.open_entries(tournament, by=organiser)
    chosen = AddEntrantsForm({"competitors": [str(choices[label])]}, tournament=tournament)
    assert chosen.is_valid(), chosen.errors
    [competitor] = chosen.cleaned_data["competitors"]
    entrant = events.enter(tournament, competitor, by=organiser, approved=True)
    assert entrant.competitor.bot.anchor == "search-32"
