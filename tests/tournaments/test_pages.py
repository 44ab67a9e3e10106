"""The web pages with real games: the home page's recent games, a game's replay, leaderboards.

The finished games are played by people's random moves and the seed's chance:
most of each is logged at once as the referee would (``fast_forward``), its
last person moves are submitted through ``referee.submit``, and the referee
finishes it, so outcomes and ratings are the ones the referee records.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

import engines
from engines import CHANCE
from games.models import Game
from games.services import create_game
from ratings.models import Rating
from tests.factories import CompetitorFactory
from tests.tournaments.played import fast_forward, play_as_people, played_game
from web.games import seat_texts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_referee")]


@pytest.fixture
def finished_games():
    players = CompetitorFactory.create_batch(3, kind="person")
    games = []
    for index in range(2):
        game = create_game("manila", players[index:] + players[:index], seed=f"page-{index}")
        rng = random.Random(index)
        fast_forward(game, rng, leave=10)
        play_as_people(game, rng)
        game.refresh_from_db()
        games.append(game)
    return players, games


def text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def test_home_lists_recent_games_with_results(client: Client, finished_games) -> None:
    _, games = finished_games
    response = client.get("/")
    page = response.content.decode()
    for game in games:
        assert f'href="/games/{game.pk}/"' in page
        winner = players_by_rank(game)[0]
        assert f"1. {winner}" in text(response.content)
    assert "finished" in page and "Manila" in page


def players_by_rank(game: Game) -> list[str]:
    seats = sorted(game.seats.all(), key=lambda s: (game.outcome.ranks[s.position], s.position))
    return [seat.competitor.name for seat in seats]


def test_game_page_shows_seats_outcome_seed_and_replay(client: Client, finished_games) -> None:
    _, games = finished_games
    game = games[0]
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert game.seed_commitment in page and game.seed in page
    assert f'href="/api/v1/games/{game.pk}/verify/"' in page
    for seat in game.seats.all():
        assert seat.competitor.name in page
    rules = engines.get("manila")
    moves = list(game.moves.order_by("ply"))
    assert page.count('<li class="ply') == len(moves)
    names = {seat.position: seat.competitor.name for seat in game.seats.all()}
    for move in moves[:30]:
        assert seat_texts.with_names(rules.describe(move.action), names) in text(response.content)
    assert f"{names[0]} is dealt a share, face down." in page, "public events, seats named"
    assert "Seat 0" not in page and "seat 0" not in page
    assert '<script src="/static/js/replay.js"' in page


def test_a_running_game_page_shows_no_action_and_no_seed(client: Client) -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="still-secret", plies=60)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert game.seed_commitment in page
    assert "still-secret" not in page and "Revealed when the game is finished" in page
    rules = engines.get("manila")
    for move in game.moves.all():
        # A deal names a hidden share; a die roll is public (its event says the same).
        if move.seat == CHANCE and move.action["type"] == "deal":
            assert rules.describe(move.action) not in page
    assert "Deal a" not in page
    assert page.count('<li class="ply') == 60
    assert "is dealt a share, face down." in page, "public events are listed as sentences"


def test_leaderboard_shows_elo_and_trueskill(client: Client, finished_games) -> None:
    players, _ = finished_games
    response = client.get("/leaderboards/manila/")
    assert response.status_code == 200
    page = text(response.content)
    elo_page = text(client.get("/leaderboards/manila/?system=elo").content)
    for player in players:
        elo = Rating.objects.get(competitor=player, system="elo", scope__engine="manila")
        true = Rating.objects.get(competitor=player, system="trueskill", scope__engine="manila")
        assert elo.games == 2
        name = re.escape(player.name) + r" \(person\) provisional "
        row = re.search(name + r"(\S+) (\S+) (\S+) (\d+)", page)
        assert row, page
        assert row.groups() == (
            f"{true.score:.2f}",
            f"{true.value:.2f}",
            f"{true.sigma:.2f}",
            "2",
        )
        row = re.search(name + r"(\S+) (\d+)", elo_page)
        assert row and row.groups() == (f"{elo.value:.1f}", "2"), elo_page
    best = max(players, key=lambda p: Rating.objects.get(competitor=p, system="trueskill").score)
    assert page.index(best.name) < min(page.index(p.name) for p in players if p != best)


def test_leaderboards_index_and_unknown_engine(client: Client, finished_games) -> None:
    players, _ = finished_games
    page = client.get("/leaderboards/").content.decode()
    for engine in engines.all_engines():
        assert f'href="/leaderboards/{engine.slug}/?system=trueskill"' in page
    assert players[0].name in page
    assert client.get("/leaderboards/chess/").status_code == 404
    assert client.get("/games/999999/").status_code == 404


def test_an_empty_leaderboard_says_so_in_words(client: Client) -> None:
    page = client.get("/leaderboards/batavia/").content.decode()
    assert "No rated Batavia game has finished yet." in page
    assert '<table class="leaderboard">' not in page


@pytest.mark.parametrize("engine", ["batavia", "cargo_noir", "grog_island"])
def test_game_page_events_are_sentences_not_internal_names(client: Client, engine: str) -> None:
    """The tester read "objective_swap", "three_coins", "a objective card" on game pages."""
    players = CompetitorFactory.create_batch(engines.get(engine).min_players + 1)
    game = played_game(engine, players, seed=f"sentences-{engine}")
    html = client.get(f"/games/{game.pk}/").content.decode()
    names = [player.name for player in players]
    events = re.findall(r'<ul class="events">(.*?)</ul>', html, flags=re.S)
    texts = [text(item.encode()).strip() for block in events for item in block.split("<li>")]
    texts = [t for t in texts if t]
    assert len(texts) > 50
    for line in texts:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), line
        assert not re.search(r"[{}\[\]]", line), line
        assert not re.search(r"\b[Aa] [aeiou]", line), line
        # A sentence starts with a capital, or with a player's name as it is written.
        assert line[0].isupper() or line.startswith(tuple(names)), line
        assert not re.search(r"\b[Ss]eat [0-9]\b", line), "seats of the game are named"


def test_a_game_of_older_rules_that_the_current_rules_refuse_still_has_a_page(
    client: Client,
) -> None:
    """A record from an older engine version may hold a move the current rules refuse."""
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="old-rules")
    moves = list(game.moves.order_by("ply"))
    refused = next(move for move in moves if move.seat != CHANCE and move.ply > 20)
    refused.action = {"type": "a move only the older rules knew"}
    refused.save()
    game.engine_version = "0-older"
    game.save()
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "played under version 0-older of its rules" in page
    assert page.count('<li class="ply') == len(moves), "every ply is still listed"
    replay = page[page.index('id="replay"') :]
    after = replay[replay.index(f'data-ply="{refused.ply}"') :]
    assert '<ul class="events">' not in after, "no events are made up past the refused move"
    assert '<ul class="events">' in replay[: replay.index(f'data-ply="{refused.ply}"')]


def test_a_game_of_the_current_rules_whose_log_does_not_replay_is_an_error(
    client: Client,
) -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="broken-log")
    move = game.moves.filter(seat__gte=0, ply__gt=20).order_by("ply").first()
    move.action = {"type": "nonsense"}
    move.save()
    with pytest.raises(engines.IllegalAction):
        client.get(f"/games/{game.pk}/")
