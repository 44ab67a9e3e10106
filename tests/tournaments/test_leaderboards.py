"""Leaderboard pages (issue #16): the system switch, the kind filter, provisional entries, links.

The ladders are written straight into ``Rating`` (``tests.tournaments.ladders``):
TrueSkill ranks competitor 0 last when scores rise with the index, OpenSkill
the other way round, and Elo as given, so each system's order is its own.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from games.models import Competitor
from ratings.models import Rating, RatingScope
from ratings.scopes import global_scope, league_scope, systems_config
from tests.factories import LeagueFactory
from tests.tournaments.ladders import ladder
from tournaments.models import League
from web.leaderboards import ranking as leaderboards
from web.leaderboards.ranking import Ladder

pytestmark = pytest.mark.django_db


MU_3_SIGMA = "<th>\u03bc \u2212 3\u03c3</th>"  # the header of the conservative score


def names_in_order(page_html: str) -> list[str]:
    return re.findall(r'class="competitor" href="[^"]+">([^<]+)</a>', page_html)


def ranks(page_html: str) -> list[int]:
    return [
        int(rank)
        for rank in re.findall(r"<tr(?: class=\"provisional\")?>\s*<td>(\d+)</td>", page_html)
    ]


def hrefs(page_html: str) -> list[str]:
    return [html_lib.unescape(href) for href in re.findall(r'href="([^"]+)"', page_html)]


@pytest.mark.parametrize(
    ("query", "order", "header"),
    [
        ("", [2, 1, 0], MU_3_SIGMA),
        ("?system=trueskill", [2, 1, 0], MU_3_SIGMA),
        ("?system=openskill", [0, 1, 2], MU_3_SIGMA),
        ("?system=elo", [1, 2, 0], "<th>Elo</th>"),
        ("?by=elo", [1, 2, 0], "<th>Elo</th>"),
    ],
)
def test_each_system_ranks_by_its_own_score(
    client: Client, query: str, order: list[int], header: str
) -> None:
    people = ladder("manila", [1.0, 2.0, 3.0], elo=[1400.0, 1700.0, 1600.0])
    page = client.get(f"/leaderboards/manila/{query}").content.decode()
    assert names_in_order(page) == [people[i].name for i in order]
    assert ranks(page) == [1, 2, 3]
    assert header in page
    if "elo" in query:
        assert "<td>1700.0</td>" in page and '<th class="wide-only">μ</th>' not in page
    else:
        system = "openskill" if "openskill" in query else "trueskill"
        best = Rating.objects.get(competitor=people[order[0]], system=system)
        assert f"<td>{best.score:.2f}</td>" in page
        assert f'<td class="wide-only">{best.value:.2f}</td>' in page
        assert f'<td class="wide-only">{best.sigma:.2f}</td>' in page


def test_the_current_system_is_the_current_tab(client: Client) -> None:
    ladder("manila", [1.0])
    page = client.get("/leaderboards/manila/?system=openskill").content.decode()
    tabs = re.search(r'<nav class="tabs" aria-label="Rating system">(.*?)</nav>', page).group(1)
    assert re.findall(r">(\w+)</a>", tabs) == ["TrueSkill", "OpenSkill", "Elo"]
    assert '<a href="?system=openskill" aria-current="page">OpenSkill</a>' in tabs
    assert tabs.count("aria-current") == 1


def test_the_kind_filter_ranks_among_those_shown(client: Client) -> None:
    # Persons at odd indexes; TrueSkill scores rise with the index.
    people = ladder(
        "manila", [float(i) for i in range(7)], kinds=lambda i: "person" if i % 2 else "bot"
    )
    page = client.get("/leaderboards/manila/?kind=person").content.decode()
    assert names_in_order(page) == [people[i].name for i in (5, 3, 1)]
    assert ranks(page) == [1, 2, 3], "a filtered rank is the rank among those shown"
    assert "People only: a rank is the rank among those shown." in page
    bots = client.get("/leaderboards/manila/?system=elo&kind=bot").content.decode()
    assert names_in_order(bots) == [people[i].name for i in (6, 4, 2, 0)]
    assert ranks(bots) == [1, 2, 3, 4]
    every = client.get("/leaderboards/manila/?kind=all").content.decode()
    assert len(names_in_order(every)) == 7


def test_filtered_ties_share_a_rank_across_pages() -> None:
    # Persons only: scores 9, 8, 7, 7, 7, 6 (bots interleaved with better scores).
    person_scores = [9.0, 8.0, 7.0, 7.0, 7.0, 6.0]
    scores = [s for score in person_scores for s in (score, score + 50)]
    ladder("manila", scores, kinds=lambda i: "bot" if i % 2 else "person")
    scope = global_scope("manila")
    shown = []
    for number in (1, 2, 3):
        page = leaderboards.page(scope, Ladder("trueskill", "person"), number, per_page=2)
        shown += [(row.rank, row.score, row.kind) for row in page.object_list]
    assert shown == [
        (1, 9.0, "person"), (2, 8.0, "person"), (3, 7.0, "person"),
        (3, 7.0, "person"), (3, 7.0, "person"), (6, 6.0, "person"),
    ]  # fmt: skip


@pytest.mark.parametrize(("games", "provisional"), [(9, True), (10, False)])
def test_provisional_below_the_threshold(client: Client, games: int, provisional: bool) -> None:
    ladder("manila", [1.0, 2.0], games=games)
    page = client.get("/leaderboards/manila/").content.decode()
    assert (
        page.count('<span class="tag" title="fewer than 10 rated games">provisional</span>') == 2
    ) is provisional
    legend = "fewer than 10 rated games: ranked all the same"
    assert (legend in page) is provisional
    assert ranks(page) == [1, 2], "provisional entries are still ranked"


def test_the_threshold_is_a_setting(client: Client, settings) -> None:
    settings.LEADERBOARD_PROVISIONAL_GAMES = 3
    ladder("manila", [1.0], games=2)
    ladder("batavia", [1.0], games=3)
    assert "fewer than 3 rated games" in client.get("/leaderboards/manila/").content.decode()
    assert leaderboards.page(global_scope("batavia")).object_list[0].provisional is False


def test_links_keep_the_other_parameters(client: Client) -> None:
    ladder("manila", [float(i) for i in range(160)], kinds=lambda i: "person" if i % 2 else "bot")
    page = client.get("/leaderboards/manila/?system=openskill&kind=person&page=1").content.decode()
    links = hrefs(page)
    for system in ("trueskill", "openskill", "elo"):
        assert f"?system={system}&kind=person" in links, "a system tab keeps the kind"
    for kind, query in (("all", "?system=openskill"), ("bot", "?system=openskill&kind=bot")):
        assert query in links, f"the {kind} tab keeps the system"
    assert "?system=openskill&kind=person&page=2" in links, "the pager keeps both"
    assert "/api/v1/leaderboards/manila/?system=openskill&kind=person" in links
    assert "/api/v1/leaderboards/manila/?system=openskill&kind=person&format=csv" in links
    second = client.get(
        "/leaderboards/manila/?system=openskill&kind=person&page=2"
    ).content.decode()
    assert "?system=openskill&kind=person" in hrefs(second), "First keeps both, page 1 implied"
    assert "Page 2 of 2 (rows 51 to 80 of 80)" in second


@pytest.mark.parametrize(
    ("system", "best", "shown"),
    [("trueskill", 2, "3.00"), ("openskill", 0, "-1.00"), ("elo", 1, "1700.0")],
)
def test_the_overview_in_each_system(client: Client, system: str, best: int, shown: str) -> None:
    people = ladder("manila", [1.0, 2.0, 3.0], elo=[1400.0, 1700.0, 1600.0])
    page = client.get(f"/leaderboards/?system={system}").content.decode()
    assert f'href="/leaderboards/manila/?system={system}"' in page
    assert f'href="/leaderboards/batavia/?system={system}"' in page
    top = people[best]
    assert (
        f'<li value="1"><a class="competitor" href="/competitors/{top.pk}/">{top.name}</a>'
        f" — {leaderboards.SYSTEM_NAMES[system]} {shown}, 12 games" in page
    )
    assert f'<a href="?system={system}" aria-current="page">' in page


def test_the_overview_links_the_leagues_ladders(
    client: Client, monkeypatch, page_cache, django_capture_on_commit_callbacks
) -> None:
    from web.games import views

    ladder("manila", [1.0], games=1)
    page = client.get("/leaderboards/").content.decode()
    assert ", 1 game <span" in page and "League ladders" not in page, "no league: no section"
    monkeypatch.setattr(views, "LEAGUES_ON_OVERVIEW", 2)
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("Bay club", "Harbour club", "Zeeland club"):
            LeagueFactory(name=name, slug=name.split()[0].lower())
    page = client.get("/leaderboards/").content.decode()
    assert "League ladders" in page, "creating a league empties the stored overview"
    assert 'href="/leagues/bay/">Bay club</a>' in page
    assert 'href="/leagues/harbour/">Harbour club</a>' in page
    assert "Zeeland club" not in page and 'href="/tournaments/">Every league</a>' in page


def test_a_system_the_scope_does_not_rate_is_refused_politely(client: Client) -> None:
    ladder("manila", [1.0, 2.0])
    RatingScope.objects.filter(engine="manila").update(systems=systems_config(("elo", "trueskill")))
    Rating.objects.filter(system="openskill").delete()
    page = client.get("/leaderboards/manila/?system=openskill").content.decode()
    assert "This ladder is not rated in OpenSkill; it is rated in TrueSkill and Elo." in page
    assert '<table class="leaderboard">' not in page and "format=csv" not in page
    tabs = re.search(r'aria-label="Rating system">(.*?)</nav>', page).group(1)
    assert "OpenSkill" not in tabs
    overview = client.get("/leaderboards/?system=openskill").content.decode()
    assert "This ladder is not rated in OpenSkill" in overview
    api = client.get("/api/v1/leaderboards/manila/?system=openskill")
    assert api.status_code == 400 and list(api.json()) == ["system"]


def test_a_page_names_what_it_could_not_read(client: Client) -> None:
    ladder("manila", [1.0, 2.0])
    page = client.get("/leaderboards/manila/?system=glicko&kind=robots").content.decode()
    assert "system=&#x27;glicko&#x27; is not one of trueskill, openskill, elo" in page
    assert "kind=&#x27;robots&#x27; is not one of all, bot, person" in page
    assert '<a href="?system=trueskill" aria-current="page">' in page


@pytest.mark.parametrize(
    ("pool", "filtered"), [("mixed", True), ("bots", False), ("people", False)]
)
def test_the_league_page_uses_the_same_board(client: Client, pool: str, filtered: bool) -> None:
    league = LeagueFactory(slug="harbour", pool=pool)
    scope = league_scope(league)
    kind = "person" if pool == "people" else "bot"
    people = Competitor.objects.bulk_create(Competitor(kind=kind, name=f"p{i}") for i in range(3))
    Rating.objects.bulk_create(
        Rating(competitor=p, scope=scope, system=system, value=v,
               sigma=None if system == "elo" else 1,
               score=v if system == "elo" else v - 3, games=20)
        for p, v in zip(people, [10.0, 30.0, 20.0], strict=True)
        for system in ("elo", "trueskill", "openskill")
    )  # fmt: skip
    page = client.get("/leagues/harbour/?system=openskill").content.decode()
    assert names_in_order(page) == ["p1", "p2", "p0"]
    assert '<a href="?system=openskill" aria-current="page">OpenSkill</a>' in page
    assert ('aria-label="Who is shown"' in page) is filtered
    assert "/api/v1/leagues/harbour/leaderboard/?system=openskill" in hrefs(page)


def test_an_empty_board_renders_in_every_system(client: Client) -> None:
    for system in ("trueskill", "openskill", "elo"):
        page = client.get(f"/leaderboards/cargo_noir/?system={system}&kind=bot")
        assert page.status_code == 200
        assert "nobody of this kind is rated here yet" in page.content.decode()
    league = LeagueFactory(slug="quiet", pool=League.Pool.MIXED)
    assert (
        "No rated game of this league has finished yet."
        in client.get(f"/leagues/{league.slug}/?system=elo").content.decode()
    )
