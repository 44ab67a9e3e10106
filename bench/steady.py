"""Steady-play page bench: what visitors' requests cost while games keep finishing (issue #17).

    .venv/bin/python -m bench.steady [--requests 3000] [--writes-every 25 100]
        [--suffix _mine] [--server postgres://postgres@127.0.0.1:5432/]

``bench.pages`` prints each page twice, *cold* (every request renders) and
*warm* (every request is served from the page cache). A real site is between
the two: its pages are cached until a write changes them, and on a bot arena
games finish all the time. This bench measures that mix. On a fresh copy of
``bench.pages``'s 100,000-game database (``hm_bench_steady``, made from
``hm_bench_pages`` + suffix each run; the source is never written) it gives 200
bench competitors a bot page, then sends a stream of requests drawn from a
traffic model (below) through Django's test client in this process, DEBUG
off, each request's database connection let go at its end as a server does
(the pool's, on PostgreSQL), the page cache on (LocMemCache unless ``REDIS_URL`` is set), and after
every ``--writes-every`` requests plays one game to its end by the real write
path: ``create_game`` for three competitors drawn by the same popularity as
the views, its moves logged by the referee's own claim write in the same
transaction, and the referee's ``advance`` (run here, as a worker would)
finishing it: outcome, ratings, tallies and every fragment
version a real game bumps. The writes' own time is not measured.

Per page kind it prints the requests, the share served from the cache alone
(no database query: every fragment found), CPU ms p50 / p95 and the p95 over the trivial view's
p95 measured in the same stream (one request in ten). Not a test: nothing
asserts a speed.

*The traffic model* (weights of a request's kind; 15% of the requests are the
bench person signed in): home 12, the games list 6, the games API 5, the
leaderboards overview 8, an engine's leaderboard first page 16, a deeper or
filtered leaderboard page 4, the leaderboard API 3, a competitor's page 22
(the bench person's or a bot's; competitors are chosen by a Zipf law, the
same that seats them in the written games, so popular competitors are both
viewed and played more), a finished game's page 14 (Zipf over the latest
2,000 games, new ones included).
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import logging
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from bench.pages import BOT_OWNER, PERSON, SIZES, _p95, _setup, bench_bot

BOT_IDS = range(2, 202)
"""These competitors get a bot page (``bench_bot`` is competitor 2's)."""
SIGNED_IN_SHARE = 0.15
TRIVIAL_EVERY = 10
RECENT_GAMES = 2000
ENGINE_SLUGS = ("manila", "batavia", "cargo_noir", "grog_island")


class Zipf:
    """Draws 0..n-1 with weight 1 / (rank + 1): a few items popular, a long tail."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.rng = rng
        self.cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(n)))

    def draw(self) -> int:
        return bisect.bisect(self.cumulative, self.rng.random() * self.cumulative[-1])


def fresh_copy(server: str, source: str, target: str) -> None:
    """``target`` made anew from ``source`` (a template copy: the source is never written)."""
    import psycopg

    with psycopg.connect(server.rstrip("/") + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')


def give_bot_pages() -> dict[int, str]:
    """A bot page for competitors 2..201, each bot its own owner's: competitor id -> its path.

    Different owners, so the written games are rated (one owner's table is rated
    only in an organiser's event); competitor 2's is ``bench_bot``'s.
    """
    from django.contrib.auth import get_user_model

    import engines
    from botapi.models import Bot

    bench_bot()
    user = get_user_model()
    user.objects.bulk_create(user(username=f"{BOT_OWNER}-{pk}") for pk in BOT_IDS[1:])
    owners = {u.username: u for u in user.objects.filter(username__startswith=BOT_OWNER)}
    slugs = [engine.slug for engine in engines.all_engines()]
    Bot.objects.bulk_create(
        Bot(
            owner=owners[f"{BOT_OWNER}-{pk}"],
            competitor_id=pk,
            name=f"bench-bot-{pk}",
            engines=slugs,
            endpoint_url="http://127.0.0.1:9/",
            signing_secret="bench-not-a-secret",
        )
        for pk in BOT_IDS[1:]
    )
    bots = Bot.objects.filter(competitor_id__in=BOT_IDS).select_related("owner")
    return {bot.competitor_id: f"/bots/{bot.owner.username}/{bot.name}/" for bot in bots}


def play_one_game(competitor_ids: Sequence[int], engine: str, rng: random.Random) -> int:
    """Create a rated game and play it to its end by the real write path; its id.

    Its moves (random legal actions, chance by the seed's dealer) are logged by
    the referee's claim write inside ``create_game``'s transaction, so the
    referee's ``advance`` at the commit finds the game over and finishes it as it
    finishes every game (``referee.finish``: outcome, ratings, bumps).
    """
    from django.conf import settings
    from django.db import transaction

    from engines import CHANCE, Dealer
    from games.models import Competitor, Game, Move
    from games.referee import claims
    from games.referee.decisions import Decision
    from games.referee.statecache import load_state
    from games.referee.steps import advance
    from games.services import create_game

    competitors = list(Competitor.objects.filter(pk__in=competitor_ids))
    with transaction.atomic():
        game = create_game(
            engine,
            competitors,
            rated=True,
            enforce_capacity=False,
        )
        state, dealer, decisions = load_state(game), Dealer(game.seed), []
        while not state.is_over:
            seat = state.to_move[0]
            if seat == CHANCE:
                decision = Decision(dealer.choose(state), source=Move.Source.CHANCE)
            else:
                decision = Decision(rng.choice(state.legal_actions(seat)))
            state.apply(seat, decision.action)
            decisions.append((seat, decision))
        assert claims.claim_plies(game, game.next_ply, decisions), "the ply was taken"
    if not settings.CELERY_TASK_ALWAYS_EAGER:  # no worker consumes the queue in this process
        advance(game.pk)
    status = Game.objects.filter(pk=game.pk).values_list("status", flat=True).get()
    assert status == Game.Status.FINISHED, f"game {game.pk} is {status}, not finished"
    return game.pk


class Traffic:
    """The request stream's model (module docstring): ``next()`` gives (kind, path)."""

    def __init__(self, rng: random.Random, bot_paths: dict[int, str]) -> None:
        from games.models import Game

        self.rng = rng
        self.competitors = [1, *sorted(bot_paths)]  # the person, then the bots
        self.paths = {1: f"/people/{PERSON}/", **bot_paths}
        self.popular = Zipf(len(self.competitors), rng)
        self.recent = Zipf(RECENT_GAMES, rng)
        self.latest = Game.objects.order_by("-id").values_list("id", flat=True).first()
        kinds: list[tuple[str, float, Callable[[], str]]] = [
            ("home", 12, lambda: "/"),
            ("games list", 6, lambda: "/games/"),
            ("games API", 5, lambda: "/api/v1/games/"),
            ("leaderboards overview", 8, lambda: "/leaderboards/"),
            ("leaderboard p1", 16, lambda: f"/leaderboards/{rng.choice(ENGINE_SLUGS)}/"),
            ("leaderboard, deeper", 4, self._deep_leaderboard),
            ("leaderboard API", 3, lambda: f"/api/v1/leaderboards/{rng.choice(ENGINE_SLUGS)}/"),
            ("competitor page", 22, lambda: self.paths[self.seat()]),
            ("game page", 14, lambda: f"/games/{self.latest - self.recent.draw()}/"),
        ]
        self.kinds = kinds
        self.weights = list(itertools.accumulate(weight for _, weight, _ in kinds))

    def seat(self) -> int:
        """A competitor drawn by popularity (the person is the most popular)."""
        return self.competitors[self.popular.draw()]

    def table(self, size: int) -> list[int]:
        """``size`` different competitors drawn by popularity."""
        chosen: list[int] = []
        while len(chosen) < size:
            pick = self.seat()
            if pick not in chosen:
                chosen.append(pick)
        return chosen

    def _deep_leaderboard(self) -> str:
        system = self.rng.choice(("elo", "trueskill", "openskill"))
        page = self.rng.randint(2, 20)
        return f"/leaderboards/{self.rng.choice(ENGINE_SLUGS)}/?system={system}&page={page}"

    def next(self) -> tuple[str, str]:
        index = bisect.bisect(self.weights, self.rng.random() * self.weights[-1])
        kind, _, path = self.kinds[index]
        return kind, path()


Seen = dict[str, list[tuple[float, bool]]]
"""Per kind of request: (CPU ms, served from the cache) of every request of that kind."""


def stream(requests: int, writes_every: int, seed: int) -> Seen:
    """Send the stream; per kind, (CPU ms, served from the cache) of every request."""
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection
    from django.test import Client

    from games.models import Game
    from web.cache import versions

    rng = random.Random(seed)
    traffic = Traffic(rng, give_bot_pages())
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(get_user_model().objects.get(username=PERSON))
    versions.clear()
    seen: Seen = defaultdict(list)
    engines_cycle = itertools.cycle(ENGINE_SLUGS)
    for number in range(1, requests + 1):
        if number % writes_every == 0:
            traffic.latest = play_one_game(traffic.table(3), next(engines_cycle), rng)
        if number % TRIVIAL_EVERY == 0:
            kind, path, client = "trivial view", "/__bench__/trivial/", anonymous
        else:
            kind, path = traffic.next()
            who = rng.random() < SIGNED_IN_SHARE
            client = signed_in if who else anonymous
            kind += ", signed in" if who else ""
        queries: list[str] = []

        def counting(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            queries.append(sql)  # noqa: B023 - used within this iteration only
            return execute(sql, params, many, context)

        began = time.process_time()
        with connection.execute_wrapper(counting):
            response = client.get(path)
        if response.streaming:
            b"".join(response.streaming_content)
        close_old_connections()  # as a server's request_finished does (the test client does not)
        cpu = (time.process_time() - began) * 1000
        if response.status_code != 200 and kind != "game page":
            raise AssertionError(f"{path}: {response.status_code}")
        seen[kind].append((cpu, not queries))  # every part of it from the cache
    games = Game.objects.filter(finished_at__isnull=False).count()
    print(f"  {requests:,} requests, a game played every {writes_every}; {games:,} games now")
    return seen


def report(seen: Seen, print_: Callable[[str], None] = print) -> None:
    """Per kind: requests, cache hits, CPU p50 / p95, and the p95 over the trivial view's."""
    floor = _p95([cpu for cpu, _ in seen["trivial view"]])
    print_(
        f"{'kind of request':<34} {'requests':>8} {'hits':>6} {'CPU p50':>8} {'CPU p95':>8}"
        f" {'ratio':>6}"
    )
    everything: list[float] = []
    for kind in sorted(seen, key=lambda k: (k != "trivial view", k)):
        samples = seen[kind]
        cpu = [value for value, _ in samples]
        if kind != "trivial view":
            everything += cpu
        hits = sum(hit for _, hit in samples) / len(samples)
        p95 = _p95(cpu) if len(cpu) > 1 else cpu[0]
        print_(
            f"{kind:<34} {len(samples):>8} {hits:>6.0%} {statistics.median(cpu):>8.2f}"
            f" {p95:>8.2f} {p95 / floor:>6.1f}"
        )
    p95 = _p95(everything)
    print_(
        f"{'every page request':<34} {len(everything):>8} {'':>6}"
        f" {statistics.median(everything):>8.2f} {p95:>8.2f} {p95 / floor:>6.1f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument(
        "--writes-every", type=int, nargs="+", default=[25, 100], help="requests between games"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--suffix", default="", help="copy hm_bench_pages<suffix>")
    args = parser.parse_args(argv)
    source, target = SIZES[0][0] + args.suffix, "hm_bench_steady" + args.suffix
    _setup(args.server, target)
    # the bench bots answer nothing
    logging.getLogger("botapi.services.notify").setLevel(logging.WARNING)
    from django.db import connections

    for writes_every in args.writes_every:
        connections["default"].close()
        connections["default"].close_pool()  # its connections die with the dropped copy
        fresh_copy(args.server, source, target)
        print(f"\n{target} (a fresh copy of {source}): a game every {writes_every} requests")
        report(stream(args.requests, writes_every, args.seed))


if __name__ == "__main__":
    main()
