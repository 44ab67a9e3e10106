"""The game page's board replay: the cost of one ``boards.json`` page, per engine.

    .venv/bin/python -m bench.replay [--seed 1] [--pages [--database-url URL]]

For a whole seeded game of each engine (random legal moves, the minimum and
maximum player counts): its plies, and for the spectator and for seat 0 the
milliseconds to build the first and the last page of ``replay.MAX_PAGE``
positions from ply 0 (``games.records.replay.page_positions``: replaying the log
and a ``board_model`` per position; no database, no HTTP) and the size of that
page as JSON.

``--pages``: the whole requests for a long finished game (Grog Island, 4
players, the longest of a few seeds, ~1,300 plies) through Django's test
client on a throw-away SQLite database (or ``--database-url``): the game page,
and ``boards.json`` at its first and last page, each *replayed* (no stored
record: what every view cost before records, and what a game without one
costs now) and *stored* (the public record and checkpoints in place).
Not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from contextlib import contextmanager
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

import django

if "--pages" not in sys.argv:
    django.setup()  # --pages configures its own database first

import engines
from engines import CHANCE, Dealer


def game_log(slug: str, players: int, seed: int) -> list[Any]:
    """The moves of a whole seeded game, as unsaved Move rows."""
    from games.models import Move

    state = engines.get(slug).new_game(players)
    dealer, rng = Dealer(seed), random.Random(seed)
    moves = []
    while not state.is_over:
        mover = state.to_move[0]
        action = dealer.choose(state) if mover == CHANCE else rng.choice(state.legal_actions(mover))
        moves.append(Move(ply=len(moves), seat=mover, action=action))
        state.apply(mover, action)
    return moves


def page(slug: str, players: int, moves: list[Any], seat: int | None, start: int):
    from games.records.replay import MAX_PAGE, page_positions

    began = time.perf_counter()
    end = min(start + MAX_PAGE, len(moves) + 1)
    positions = page_positions(
        engines.get(slug).new_game(players),
        moves[:end],
        seat,
        start,
        end,
        logged=len(moves),
        public=True,
        names={i: f"Seat {i}" for i in range(players)},
        bot_seats=set(range(players)),
    )
    elapsed = (time.perf_counter() - began) * 1000
    return elapsed, len(json.dumps(positions)), len(moves) + 1


def engine_pages(seed: int) -> None:
    from games.records.replay import MAX_PAGE

    print(f"page = {MAX_PAGE} positions, replayed from ply 0; ms is the median of 3 builds")
    print(f"{'engine':12} {'pl':>2} {'plies':>5} {'viewer':>9} {'page':>5} {'ms':>7} {'KiB':>7}")
    for rules in engines.all_engines():
        for players in sorted({rules.min_players, rules.max_players}):
            moves = game_log(rules.slug, players, seed)
            last = (len(moves) // MAX_PAGE) * MAX_PAGE
            for seat in (None, 0):
                for start in (0, last):
                    runs = [page(rules.slug, players, moves, seat, start) for _ in range(3)]
                    ms = statistics.median(r[0] for r in runs)
                    size = runs[0][1] / 1024
                    who = "spectator" if seat is None else f"seat {seat}"
                    print(
                        f"{rules.slug:12} {players:>2} {len(moves):>5} {who:>9} "
                        f"{'first' if start == 0 else 'last':>5} {ms:7.1f} {size:7.1f}"
                    )


def long_game() -> Any:
    """The longest of a few seeded 4-player Grog Island games, stored as a finished game."""
    from games.models import Competitor, Game, Move, Outcome, Seat
    from games.selectors.ranks import final_ranks

    moves = max((game_log("grog_island", 4, seed) for seed in range(20)), key=len)
    rules = engines.get("grog_island")
    state = rules.new_game(4)
    for move in moves:
        state.apply(move.seat, move.action)
    game = Game.objects.create(
        engine="grog_island",
        engine_version=rules.version,
        num_players=4,
        options=rules.check_setup(4, {}),
        seed="bench",
        seed_commitment=engines.seed_commitment("bench"),
        status=Game.Status.FINISHED,
        rated=False,
        next_ply=len(moves),
    )
    for position in range(4):
        competitor = Competitor.objects.create(kind="person", name=f"bench{position}")
        Seat.objects.create(game=game, position=position, competitor=competitor)
    for move in moves:
        move.game = game
        move.source = Move.Source.CHANCE if move.seat == CHANCE else Move.Source.PERSON
    Move.objects.bulk_create(moves)
    result = state.outcome()
    Outcome.objects.create(
        game=game, scores=result["scores"], ranks=final_ranks(result["ranks"], [False] * 4)
    )
    return game


@contextmanager
def records_bypassed():
    """No stored record is read or written: every request replays the log from ply 0."""
    from games.records import stored as records

    saved = records.stored, records.checkpoint, records.store
    records.stored = lambda game: None
    records.checkpoint = lambda game, ply: None
    records.store = lambda game, record, checkpoints: None
    try:
        yield
    finally:
        records.stored, records.checkpoint, records.store = saved


def request_pages(database_url: str | None) -> None:
    from bench.ratings_db import configure

    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    configure(database_url)
    from django.test import Client

    from games.models import GameRecord
    from games.records import stored as records

    game = long_game()
    client = Client()
    last = (game.next_ply // 100) * 100
    urls = {
        "game page": f"/games/{game.pk}/",
        "boards.json first": f"/games/{game.pk}/boards.json?start=0",
        "boards.json last": f"/games/{game.pk}/boards.json?start={last}",
    }

    def timed(url: str) -> float:
        runs = []
        for _ in range(7):
            began = time.perf_counter()
            assert client.get(url).status_code == 200
            runs.append((time.perf_counter() - began) * 1000)
        return statistics.median(runs)

    print(f"grog_island, 4 players, {game.next_ply} plies; ms is the median of 7 requests")
    with records_bypassed():
        before = {name: timed(url) for name, url in urls.items()}
    began = time.perf_counter()
    records.store(game, *records.build(game))
    build_ms = (time.perf_counter() - began) * 1000
    size = len(GameRecord.objects.get(game=game).plies)
    after = {name: timed(url) for name, url in urls.items()}
    print(f"{'request':18} {'replayed':>9} {'stored':>8}")
    for name in urls:
        print(f"{name:18} {before[name]:9.1f} {after[name]:8.1f}")
    print(f"building and storing the record once: {build_ms:.0f} ms; plies {size / 1024:.0f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pages", action="store_true", help="time the long game's requests")
    parser.add_argument("--database-url", default=None, help="with --pages (default: SQLite)")
    args = parser.parse_args()
    if args.pages:
        request_pages(args.database_url)
    else:
        engine_pages(args.seed)


if __name__ == "__main__":
    main()
