"""A competitor page, and the export, read the same number of queries for 5 games as for 40.

Each size builds its own world: a bot and a person who meet three rotating
opponents in rated Manila games (applied to the ratings, so the chart has a
point per game), some inside a tournament, plus an unrated Batavia game.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from people import services as people
from ratings.services.apply import apply_game_result
from tests.factories import BotFactory, CompetitorFactory, UserFactory, finished_game
from tournaments.models import Tournament

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def build(games: int, tag: str) -> tuple[str, str, int]:
    """``games`` games of a bot and a person; their page addresses and the bot's id."""
    bot = BotFactory(name=f"bot-{tag}", owner=UserFactory(username=f"owner-{tag}", password=None))
    user = UserFactory(username=f"player-{tag}", password=None)
    person = people.ensure_person(user).competitor
    rivals = [CompetitorFactory(name=f"rival-{tag}-{n}") for n in range(4)]
    event = Tournament.objects.create(name=f"Cup {tag}", engine="manila", status="finished")
    for n in range(games - 1):
        seats = [bot.competitor, person, rivals[n % 4]]
        ranks = [1 + (n + i) % 3 for i in range(3)]
        game = finished_game(seats, ranks, scores=[10 * r for r in ranks],
                             tournament=event if n % 3 == 0 else None)  # fmt: skip
        apply_game_result(game)
    finished_game([person, bot.competitor], [2, 1], engine="batavia", rated=False)
    return f"/bots/owner-{tag}/bot-{tag}/", f"/people/player-{tag}/", bot.competitor.pk


def count(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    assert response.status_code == 200, path
    return len(queries)


def measure(games: int, tag: str) -> dict[str, int]:
    client = Client()
    bot_page, person_page, bot_id = build(games, tag)
    export = f"/api/v1/competitors/{bot_id}/games/"
    return {
        "bot page": count(client, bot_page),
        "bot page, filtered": count(client, bot_page + "?engine=manila&rated=true"),
        "person page": count(client, person_page),
        "export json": count(client, export),
        "export csv": count(client, export + "?format=csv"),
    }


def test_query_counts_do_not_grow_with_the_games() -> None:
    small = measure(5, "small")
    large = measure(40, "large")  # a second world beside the first
    print("\nqueries at 5 and 40 games:", small, large)
    assert small == large
    assert small["bot page"] <= 10 and small["person page"] <= 12
    assert small["export json"] <= 5 and small["export csv"] <= 5
