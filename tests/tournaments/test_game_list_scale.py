"""Game lists paged by cursor: the home page, /games/, a person's games and GET /api/v1/games/.

Every page reads the same queries whatever the table's size, nothing counts the
whole table, following the cursors lists every game exactly once in
``created_at DESC, id DESC`` order (games created at the same instant
included), and games created meanwhile do not shift the pages.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Competitor, Game
from games.selectors.cursor import Cursor
from people import services
from tests.factories import CompetitorFactory, UserFactory, finished_game
from web.games import views

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def games(count: int, players: list[Competitor] | None = None, **fields) -> list[Game]:
    """``count`` finished games, one a minute back from now, every fifth pair at one instant."""
    players = players or CompetitorFactory.create_batch(3)
    made = [finished_game(players, [1, 2, 3], **fields) for _ in range(count)]
    now = timezone.now()
    for index, game in enumerate(made):
        minute = index - index % 2 if index % 5 == 0 else index  # some share an instant
        Game.objects.filter(pk=game.pk).update(created_at=now - timedelta(minutes=count - minute))
    return made


def newest_first(queryset=None) -> list[int]:
    queryset = queryset if queryset is not None else Game.objects.filter(listed=True)
    return list(queryset.order_by("-created_at", "-id").values_list("pk", flat=True))


def ids_on(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<td><a href="/games/(\d+)/">', html)]


def older_link(html: str) -> str | None:
    found = re.search(r'href="([^"]*\?before=[0-9-]+)[^"]*" rel="next"', html)
    return found[1] if found else None


def follow(client: Client, url: str) -> tuple[list[int], int]:
    """Every game id from ``url`` on by its "older games" links, and the pages read."""
    seen, pages = [], 0
    while url:
        html = client.get(url).content.decode()
        seen += ids_on(html)
        pages += 1
        url = older_link(html)
    return seen, pages


def test_the_home_page_shows_the_newest_and_links_to_older_games(client: Client) -> None:
    games(45)
    html = client.get("/").content.decode()
    order = newest_first()
    assert ids_on(html) == order[:20]
    first = older_link(html)
    assert first is not None and first.startswith("/games/?before=")
    rest, pages = follow(client, first)
    assert rest == order[20:] and pages == 1  # 50 a page on /games/
    html = client.get(first).content.decode()
    assert 'href="/games/" rel="first">Newest games' in html


def test_the_game_list_walks_every_game_once_across_pages(client: Client, monkeypatch) -> None:
    made = games(23)
    unlisted = finished_game(CompetitorFactory.create_batch(3), [1, 2, 3], listed=False)
    monkeypatch.setattr(views, "GAMES_PER_PAGE", 5)
    seen, pages = follow(client, "/games/")
    assert seen == newest_first() and len(seen) == len(made) and unlisted.pk not in seen
    assert pages == 5


WINDOW_COUNT = re.compile(r"COUNT\([^()]*\)\s+OVER\s*\([^()]*\)", re.IGNORECASE)


def test_list_pages_read_the_same_queries_at_two_sizes(client: Client) -> None:
    person = services.ensure_person(UserFactory(username="marta", password=None))
    counts = []
    for size in (30, 300):
        games(size - Game.objects.count(), [person.competitor, *CompetitorFactory.create_batch(2)])
        middle = Game.objects.order_by("-created_at", "-id")[size // 2]
        cursor = Cursor.after(middle).encode()
        run = {}
        urls = ["/", "/games/", "/people/marta/", "/api/v1/games/"]
        for url in [*urls, f"/games/?before={cursor}", f"/people/marta/?before={cursor}"]:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            run[url.split("?")[0] + ("?" if "?" in url else "")] = len(queries)
            for query in queries:
                # A window COUNT(...) OVER counts rows the query's WHERE already
                # chose (one competitor's rating changes), not the table.
                sql = WINDOW_COUNT.sub("", query["sql"])
                if "tournaments_game" in sql and "COUNT(" in sql.upper():
                    assert "LIMIT" in sql, f"a count of the whole table: {sql}"
        counts.append(run)
    assert counts[0] == counts[1]


def test_a_persons_games_are_theirs_only_page_after_page(client: Client) -> None:
    """Their own games on /me/ (the public person page's list is the competitor page's)."""
    user = UserFactory(username="marta", password=None)
    person = services.ensure_person(user)
    others = CompetitorFactory.create_batch(3)
    theirs = games(25, [person.competitor, *others[:2]])
    games(7, others)
    client.force_login(user)
    html = client.get("/me/").content.decode()
    seen = ids_on(html)
    link = older_link(html)
    while link:
        assert link.startswith("/me/?before=")
        html = client.get(link).content.decode()
        seen += ids_on(html)
        link = older_link(html)
    assert seen == newest_first(Game.objects.filter(pk__in=[g.pk for g in theirs]))
    assert client.get("/me/?before=yesterday").status_code == 404
    assert client.get("/games/?before=1-2-3").status_code == 404


def test_lists_render_with_no_games(client: Client) -> None:
    services.ensure_person(UserFactory(username="marta", password=None))
    for url in ("/", "/games/", "/people/marta/", "/leaderboards/", "/leaderboards/manila/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert 'rel="next"' not in response.content.decode()
    body = APIClient().get("/api/v1/games/").json()
    assert body == {"count": 0, "next": None, "previous": None, "results": []}


# --------------------------------------------------------------------- the API
def api_ids(body: dict) -> list[int]:
    return [game["id"] for game in body["results"]]


def test_the_api_pages_by_cursor_next_and_previous() -> None:
    games(13)
    api = APIClient()
    order = newest_first()
    first = api.get("/api/v1/games/?page_size=5").json()
    assert first["count"] == 13 and first["previous"] is None
    assert api_ids(first) == order[:5]
    second = api.get(first["next"]).json()
    assert api_ids(second) == order[5:10]
    third = api.get(second["next"]).json()
    assert api_ids(third) == order[10:] and third["next"] is None
    back = api.get(third["previous"]).json()
    assert api_ids(back) == order[5:10]
    assert api_ids(api.get(back["previous"]).json()) == order[:5]
    assert api.get("/api/v1/games/?page=1&page_size=5").json()["results"] == first["results"]


def test_api_pages_stay_put_while_games_are_created() -> None:
    games(12)
    api = APIClient()
    order = newest_first()
    first = api.get("/api/v1/games/?page_size=4").json()
    players = CompetitorFactory.create_batch(3)
    for _ in range(3):  # created now: newer than every listed game
        finished_game(players, [1, 2, 3])
    second = api.get(first["next"]).json()
    assert api_ids(second) == order[4:8], "no game repeated or skipped"
    back = api.get(second["previous"]).json()
    assert api_ids(back) == order[:4]


def test_api_cursor_filters_and_refusals() -> None:
    games(6, engine="batavia")
    games(4)
    api = APIClient()
    body = api.get("/api/v1/games/?engine=batavia&page_size=4").json()
    rest = api.get(body["next"]).json()
    assert body["count"] == 6 and len(api_ids(body) + api_ids(rest)) == 6
    assert "engine=batavia" in body["next"]
    forged = "cD1ub3QtYS1kYXRl"  # base64 of "p=not-a-date"
    assert api.get(f"/api/v1/games/?cursor={forged}").status_code == 404
