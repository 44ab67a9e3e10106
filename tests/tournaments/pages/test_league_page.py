"""A league's page: its tournaments, its own leaderboard, its pool and its arena."""

from __future__ import annotations

import pytest
from django.test import Client

from ratings.models import Rating, RatingScope
from ratings.services.apply import apply_game_result
from tests.factories import LeagueFactory, finished_game
from tests.tournaments.pages.builders import make_event
from tests.tournaments.pages.test_tournament_pages import page, text
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db


def test_an_empty_league_page_says_what_is_missing(client: Client) -> None:
    league = LeagueFactory(name="Quiet league", slug="quiet", pool=League.Pool.PEOPLE)
    words = text(page(client, "/leagues/quiet/").encode())
    assert "Quiet league" in words and "people only" in words
    assert "No rated game of this league has finished yet." in words
    assert "No tournament of this league is open, running or finished yet." in words
    assert "Off: no arena games are being paired" in words
    assert league.name in text(page(client, "/tournaments/").encode())


def test_unknown_league_is_404(client: Client) -> None:
    assert client.get("/leagues/no-such-league/").status_code == 404


def test_the_league_shows_its_tournaments_leaderboard_and_arena(client: Client) -> None:
    league = LeagueFactory(
        name="Harbour league", slug="harbour", arena_enabled=True, pool=League.Pool.BOTS,
        arena_move_time_ms=2000, arena_time_bank_ms=10000,
    )  # fmt: skip
    event = make_event(name="Spring open", league=league, rated=True)
    for game in event.games:
        apply_game_result(game)
    make_event(name="Hidden draft", league=league, played=0, status=Tournament.Status.DRAFT)
    elsewhere = make_event(name="Unrelated cup")
    arena = finished_game(
        [b.competitor for b in event.bots[:4]], [1, 2, 3, 4], league=league, scores=[9, 7, 5, 1]
    )
    html = page(client, "/leagues/harbour/")
    words = text(html.encode())
    assert f'href="/tournaments/{event.tournament.pk}/"' in html
    assert "Hidden draft" not in words and elsewhere.tournament.name not in words
    scope = RatingScope.objects.get(kind=RatingScope.Kind.LEAGUE, league=league)
    best = Rating.objects.filter(scope=scope, system="trueskill").order_by("-score")
    names = [rating.competitor.name for rating in best]
    assert len(names) == 9
    found = [words.index(f"{name} (bot)") for name in names]
    assert found == sorted(found), "the league's ladder, best TrueSkill first"
    assert "bots only" in words and "Running: bots waiting to play" in words
    assert "tables of 4 (at least 3), 2 s per move plus a 10 s time bank, rated" in words
    section = html[html.index("Recent arena games") :]
    assert f'href="/games/{arena.pk}/"' in section
    for game in event.games:
        assert f'href="/games/{game.pk}/"' not in section, "tournament games are not arena games"


def test_elo_order_is_offered(client: Client) -> None:
    league = LeagueFactory(slug="elo-league")
    event = make_event(league=league, rated=True, entrants=6, rounds=2)
    for game in event.games:
        apply_game_result(game)
    for query in ("?by=elo", "?system=elo"):  # ?by= is the old name, still read
        html = page(client, f"/leagues/elo-league/{query}")
        assert '<a href="?system=elo" aria-current="page">Elo</a>' in html
        assert "<th>Elo</th>" in html
