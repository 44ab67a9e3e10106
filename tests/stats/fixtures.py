"""A small hand-computed world for the competitor statistics (see ``world`` for the numbers).

alpha (the bot ann/alpha) plays four counted Manila games against bravo, charlie (and delta in the
four-player one), with a shared first place, and one unrated Batavia game.
Three more games hold alpha but must never count: one of a duplicate set
still being played, one unlisted local test game, and one still running.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Competitor, Game, Seat
from ratings.services.apply import apply_game_result
from tests.factories import BotFactory, CompetitorFactory, GameFactory, UserFactory, finished_game
from tournaments.models import Round, Table, Tournament


@dataclass
class World:
    alpha: Competitor
    bravo: Competitor
    charlie: Competitor
    delta: Competitor
    tournament: Tournament
    counted: list[Game]
    """g1..g4 (Manila, rated) and g8 (Batavia, unrated), in that order."""
    set_open: Game
    unlisted: Game
    running: Game


def build_world() -> World:
    alpha = BotFactory(
        name="alpha",
        owner=UserFactory(username="ann", password=None),
        description="Greedy, with a look-ahead of two plies.",
        endpoint_url="http://127.0.0.1:9/secret-endpoint",
        signing_secret="hms_very-secret-signing-key",
        pull_token_hint="hmp_hint",
        status_reason="suspended after 3 faulty games: ping to 127.0.0.1 refused",
        last_ping_detail="connection refused by 127.0.0.1:9",
    ).competitor
    bravo, charlie, delta = (CompetitorFactory(name=name) for name in ("bravo", "charlie", "delta"))
    event = Tournament.objects.create(name="Spring cup", engine="manila", status="finished")
    g1 = finished_game([alpha, bravo, charlie], [1, 2, 3], scores=[30, 20, 10], tournament=event)
    apply_game_result(g1)
    g2 = finished_game([bravo, alpha, charlie], [1, 1, 3], scores=[25, 25, 5])
    apply_game_result(g2)
    g3 = finished_game([charlie, bravo, alpha], [1, 2, 3], scores=[40, 30, 20])
    apply_game_result(g3)
    g4 = finished_game([alpha, bravo, charlie, delta], [2, 1, 3, 4], scores=[15, 18, 12, 3])
    apply_game_result(g4)
    g8 = finished_game(
        [bravo, alpha, charlie], [2, 1, 3], scores=[5, 9, 1], engine="batavia", rated=False
    )

    # A duplicate set: one game over, its twin still running -> the first is not public yet.
    cup = Tournament.objects.create(name="Duplicate cup", engine="manila", status="running")
    table = Table.objects.create(round=Round.objects.create(tournament=cup, number=1), number=1,
                                 seats=[])  # fmt: skip
    # The twin first, as pairing makes a set's games together (a set never grows later).
    twin = GameFactory(num_players=3, status=Game.Status.RUNNING, table=table, tournament=cup)
    for position, competitor in enumerate([bravo, charlie, alpha]):
        Seat.objects.create(game=twin, position=position, competitor=competitor)
    set_open = finished_game([alpha, bravo, charlie], [1, 2, 3], scores=[99, 1, 0], table=table,
                             tournament=cup)  # fmt: skip
    apply_game_result(set_open)
    unlisted = finished_game([alpha, delta], [1, 2], scores=[50, 0], listed=False, rated=False)
    running = GameFactory(num_players=3, status=Game.Status.RUNNING)
    for position, competitor in enumerate([alpha, delta, bravo]):
        Seat.objects.create(game=running, position=position, competitor=competitor)
    return World(alpha, bravo, charlie, delta, event, [g1, g2, g3, g4, g8], set_open, unlisted,
                 running)  # fmt: skip
