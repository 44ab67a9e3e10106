"""The Jinja2 partials of the lists (``web.jinja``): escaped as the Django templates were, and
their cheap helpers writing what Django's would."""

from __future__ import annotations

import pytest
from django.test import Client

from people.services import ensure_person
from stats.selectors.competitor import HeadToHead
from stats.selectors.filters import GameFilters
from tests.factories import CompetitorFactory, UserFactory, finished_game
from web.jinja import games_against

pytestmark = pytest.mark.django_db

NASTY = "<script>alert('x')</script>&co"


@pytest.mark.parametrize("engine", ["manila", "grog_island", "a b&c"])
def test_games_against_writes_what_the_filters_query_writes(engine: str) -> None:
    row = HeadToHead(
        opponent_id=42, opponent="x", kind="bot", engine=engine, engine_name="E", games=1,
        ahead=1, level=0, behind=0, my_average_rank=1.0, their_average_rank=2.0,
        score_difference=1.5,
    )  # fmt: skip
    assert games_against(GameFilters(), row) == GameFilters(engine=engine, opponent=42).query()


def test_names_are_escaped_in_every_partial(client: Client) -> None:
    me = ensure_person(UserFactory(username="esc-fr", password=None)).competitor
    nasty = CompetitorFactory(name=NASTY)
    finished_game([me, nasty], [1, 2], scores=[2.675, 1])
    for path in ("/", "/games/", "/people/esc-fr/"):
        page = client.get(path).content.decode()
        assert (
            NASTY not in page and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;co" in page
        )
        assert ">2.68<" in page or ">2.67<" in page, "the score as floatformat:-2 writes it"
