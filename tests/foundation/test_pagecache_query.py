"""The page cache keys a page by its canonical query: one page however the query is written.

Keyed by the raw query string, the same page asked for as ``?a=1&b=2``,
``?b=2&a=1`` or with ``&junk=x`` would be kept three times in Redis, and junk
parameters could fill the cache at will.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import CompetitorFactory, finished_game
from web.cache import pagecache

HIT = "X-Page-Cache"
LADDER = "/leaderboards/manila/"


@pytest.fixture
def games(db):
    players = CompetitorFactory.create_batch(3, kind="bot")
    return [finished_game(players, [1, 2, 3]) for _ in range(2)]


def stored_pages() -> set[str]:
    """The page keys in this test's (in-memory) cache."""
    return {key for key in cache._cache if pagecache._PAGE_PREFIX in key}


@pytest.mark.parametrize(
    ("query", "canonical"),
    [
        ("", ""),
        ("system=elo&kind=bot", "kind=bot&system=elo"),
        ("kind=bot&system=elo", "kind=bot&system=elo"),
        ("kind=b%6Ft&system=elo", "kind=bot&system=elo"),
        ("page=2&page=1", "page=2&page=1"),  # a name's repeated values keep their order
        ("opponent=a+b&page=", "opponent=a+b&page="),
        ("system=elo&junk=x", None),
        ("utm_source=mail", None),
    ],
)
def test_canonical_query(query: str, canonical: str | None) -> None:
    assert pagecache.canonical_query(query) == canonical


@pytest.mark.usefixtures("page_cache", "games")
def test_one_page_is_stored_however_its_query_is_written(client: Client) -> None:
    first = client.get(f"{LADDER}?system=elo&kind=bot")
    assert first.status_code == 200 and first[HIT] == "miss"
    assert len(stored_pages()) == 1
    reordered = client.get(f"{LADDER}?kind=bot&system=elo")
    assert reordered[HIT] == "hit" and reordered.content == first.content
    junk = client.get(f"{LADDER}?system=elo&kind=bot&junk=x")
    assert junk.status_code == 200 and junk.get(HIT) != "hit"
    assert junk.content == first.content  # the view does not read it: the same page
    assert len(stored_pages()) == 1, "the junk parameter stored no page of its own"
    assert client.get(f"{LADDER}?system=elo&kind=bot&junk=y").get(HIT) != "hit"
    assert len(stored_pages()) == 1


@pytest.mark.usefixtures("page_cache", "games")
def test_a_parameter_the_page_reads_is_still_its_own_page(client: Client) -> None:
    elo = client.get(f"{LADDER}?system=elo")
    trueskill = client.get(f"{LADDER}?system=trueskill")
    assert elo[HIT] == trueskill[HIT] == "miss"
    assert len(stored_pages()) == 2
    assert client.get(f"{LADDER}?system=elo")[HIT] == "hit"
