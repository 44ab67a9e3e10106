"""The game page's results table: ranks, scores and the rating change the game caused.

Games are played with ``played_game`` (a real move log and outcome) and rated
through ``ratings.services.apply.apply_game_result``, the referee's own path, so the
``RatingChange`` rows are the ledger's. The table must show exactly those rows,
in one query whatever the number of seats, and nothing of them (nor the seed,
nor the record's link) before the record is public.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from games.selectors import listings, spectator
from ratings.models import RatingChange, RatingScope
from ratings.services.apply import apply_game_result
from ratings.systems import get_system
from tests.factories import CompetitorFactory, LeagueFactory
from tests.tournaments.played import played_game
from tournaments.models import Round, Table, Tournament
from web.games import rating_effects

pytestmark = pytest.mark.django_db

NAMES = {"elo": "Elo", "trueskill": "TrueSkill", "openskill": "OpenSkill"}


def rated_game(players: int = 3, *, seed: str = "results", **fields) -> Game:
    competitors = CompetitorFactory.create_batch(players)
    game = played_game("manila", competitors, seed=seed, rated=True)
    if fields:
        Game.objects.filter(pk=game.pk).update(**fields)
        game.refresh_from_db()
    assert apply_game_result(game) > 0
    return game


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows(page: str) -> dict[str, str]:
    """The results table's rows as text, by the competitor's name."""
    table = page[page.index('class="seats-table results-table"') :]
    table = table[: table.index("</table>")]
    body = table[table.index("<tbody>") :]
    found = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S):
        name = re.search(r'class="competitor"[^>]*>([^<]+)<', row).group(1)
        found[name] = text(row)
    return found


def expected_line(change: RatingChange) -> str:
    """What the page must say for one change row, computed here from the row alone."""
    if change.before_sigma is None:
        before, after, places = change.before_value, change.after_value, 1
    else:
        score = get_system(change.system).score
        before = score((change.before_value, change.before_sigma))
        after = score((change.after_value, change.after_sigma))
        places = 2
    size = f"{abs(after - before):.{places}f}"
    sign = "±" if float(size) == 0 else "+" if after > before else "-"
    return f"{NAMES[change.system]} {before:.{places}f} → {after:.{places}f} ({sign}{size})"


def test_the_deltas_are_the_rating_change_rows(client: Client) -> None:
    game = rated_game()
    page = client.get(f"/games/{game.pk}/").content.decode()
    by_name = rows(page)
    changes = list(RatingChange.objects.filter(game=game).select_related("competitor"))
    assert len(changes) == 3 * 3, "three seats, three systems, the global ladder only"
    for change in changes:
        line = expected_line(change)
        assert line in by_name[change.competitor.name], (line, by_name[change.competitor.name])
    for seat in game.seats.select_related("competitor"):
        row = by_name[seat.competitor.name]
        assert row.startswith(f"{seat.position + 1} {seat.competitor.name}"), "seats from 1"
        assert f" {game.outcome.ranks[seat.position]} " in row
    assert ">Rating change</th>" in page and "<th>Global ladder</th>" in page
    assert 'href="/competitors/' in page


def test_the_service_numbers_equal_the_rows_exactly() -> None:
    game = rated_game(seed="exact")

    loaded = listings.games_with_seats().get(pk=game.pk)
    table = rating_effects.game_ratings(loaded, spectator.public_seats(loaded))
    assert table is not None and [c.label for c in table.columns] == ["Global ladder"]
    rows_by_competitor = {row.seat.competitor_id: row for row in table.rows}
    for change in RatingChange.objects.filter(game=game):
        cell = rows_by_competitor[change.competitor_id].cells[0].changes
        shown = next(c for c in cell if c.system == change.system)
        assert (shown.before_mu, shown.after_mu) == (change.before_value, change.after_value)
        assert (shown.before_sigma, shown.after_sigma) == (change.before_sigma, change.after_sigma)
        if change.system == "elo":
            assert shown.delta == change.after_value - change.before_value
        else:
            assert shown.after == change.after_value - 3 * change.after_sigma
    for row in table.rows:
        assert [c.system for c in row.cells[0].changes] == ["elo", "trueskill", "openskill"]


def test_a_league_game_shows_the_league_scope_too(client: Client) -> None:
    league = LeagueFactory(name="Harbour Club", engine="manila")
    game = rated_game(seed="league", league=league)
    assert RatingChange.objects.filter(game=game, scope__kind=RatingScope.Kind.LEAGUE).count() == 9
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "<th>Global ladder</th>" in page and "<th>League: Harbour Club</th>" in page
    assert 'data-label="Rating change, League: Harbour Club"' in page
    by_name = rows(page)
    for change in RatingChange.objects.filter(game=game).select_related("competitor"):
        assert expected_line(change) in by_name[change.competitor.name]


def test_an_unrated_game_says_why_per_seat(client: Client) -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="unrated")
    Game.objects.filter(pk=game.pk).update(unrated_reason=Game.UnratedReason.CHALLENGE)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert text(page).count("unrated: a challenge") == 3
    assert "→" not in text(page[page.index("results-table") : page.index("</table>")])


def test_forfeited_withdrawn_and_substituted_seats_are_marked(client: Client) -> None:
    competitors = CompetitorFactory.create_batch(3)
    game = played_game("manila", competitors, seed="withdrawn", rated=True)
    Seat.objects.filter(game=game, position=1).update(
        forfeited=True, withdrawn=True, substituted=True
    )
    Seat.objects.filter(game=game, position=2).update(forfeited=True)
    apply_game_result(game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    by_name = rows(page)
    withdrawn = by_name[competitors[1].name]
    assert (
        "withdrawn" in withdrawn
        and "substituted" in withdrawn
        and "(left the game: ranked last)" in withdrawn
    )
    assert "unrated: withdrew from the event during the game" in withdrawn
    assert "(left the game: ranked last)" in by_name[competitors[2].name]
    assert "Elo" in by_name[competitors[2].name], "a forfeit is rated (last)"
    assert "(left the game: ranked last)" not in by_name[competitors[0].name]
    assert not RatingChange.objects.filter(game=game, competitor=competitors[1]).exists()


def page_queries(client: Client, game: Game) -> int:
    client.get(f"/games/{game.pk}/")  # the first view stores the public record
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    return len(queries)


def test_the_page_reads_the_same_queries_for_3_and_5_seats(client: Client) -> None:
    small = rated_game(3, seed="three", league=LeagueFactory(engine="manila"))
    large = rated_game(5, seed="five", league=LeagueFactory(engine="manila"))
    assert RatingChange.objects.filter(game=large).count() == 5 * 3 * 2
    assert page_queries(client, small) == page_queries(client, large)
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/games/{large.pk}/")
    reads = [q["sql"] for q in queries if "ratings_ratingchange" in q["sql"]]
    assert len(reads) == 1, reads


def test_nothing_before_the_game_is_over(client: Client) -> None:
    game = played_game("manila", CompetitorFactory.create_batch(3), seed="running-secret", plies=30)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "results-table" not in page and "Rating change" not in page
    assert "running-secret" not in page and "Download record" not in page
    assert f"/api/v1/games/{game.pk}/record/" not in page
    assert f"/games/{game.pk}/verify/" not in page


def open_duplicate_set(seed: str) -> Game:
    """A finished, rated game whose duplicate set still has a game running (so not rated yet)."""
    event = Tournament.objects.create(name="Duplicate", engine="manila", duplicate=True)
    table = Table.objects.create(
        round=Round.objects.create(tournament=event, number=1), number=1, seats=[1, 2, 3]
    )
    players = CompetitorFactory.create_batch(3)
    finished = played_game("manila", players, seed=seed, rated=True)
    running = played_game("manila", players[1:] + players[:1], seed=seed, plies=12)
    Game.objects.filter(pk__in=[finished.pk, running.pk]).update(tournament=event, table=table)
    finished.refresh_from_db()
    assert apply_game_result(finished) == 0, "its ratings wait for its set"
    return finished


def test_nothing_of_an_open_duplicate_set(client: Client) -> None:
    game = open_duplicate_set("dup-secret")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "results-table" not in page and "Rating change" not in page
    assert "dup-secret" not in page and "Download record" not in page
    assert "every game of this duplicate set has finished" in page
    seats = page[page.index("<h2>Seats") : page.index("<h2>Replay")]
    assert "→" not in seats and "(left the game: ranked last)" not in seats
