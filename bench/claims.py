"""The referee's time per move claim on PostgreSQL: sent while the next bot thinks, or waited for.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/harbormaster \\
    .venv/bin/python -m bench.claims [--claims 500] [--bot-ms 2]

Creates a throwaway database (``<name>_bench_claims_<pid>``, dropped at the
end) and a running game row with one seat (no referee: nothing else moves
it), then claims its plies one after another, a bot's move and
a chance move per claim with the seat's update, as ``referee.advance`` does,
alternating two ways:

- sent: ``send_claim``, then ``--bot-ms`` of waiting (the next bot's HTTP
  call), then ``result()``: the database commits during the wait;
- waited: ``claim_plies``, which returns once the claim is committed, then
  the same wait.

Per claim it counts only the time spent in the calls (the referee's thread
busy or blocked on the database), not the wait, and prints mean, median and
90th percentile of each, with a bare round trip (``SELECT 1``) for scale.
The two alternate claim by claim, so a busy machine slows both alike. Not a
test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")
django.setup()

from django.db import connection  # noqa: E402


def figures(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p90 = ordered[int(len(ordered) * 0.9)]
    return (
        f"mean {statistics.fmean(ordered):.3f} ms, median {statistics.median(ordered):.3f} ms, "
        f"p90 {p90:.3f} ms"
    )


def run(claims_count: int, bot_s: float) -> None:
    from games.models import Game, Move, Seat
    from games.referee import claims
    from games.referee.decisions import Decision
    from tests.factories import CompetitorFactory, GameFactory

    game = GameFactory(status=Game.Status.RUNNING)
    seat = Seat.objects.create(game=game, position=0, competitor=CompetitorFactory(kind="person"))
    ply = game.next_ply

    def decisions() -> list:
        bot = Decision({"kind": "bench"}, source=Move.Source.BOT, latency_ms=3)
        return [(0, bot), (-1, Decision({"kind": "chance"}, source=Move.Source.CHANCE))]

    def sent() -> float:
        started = time.perf_counter()
        pending = claims.send_claim(game, ply, decisions(), seat)
        busy = time.perf_counter() - started
        time.sleep(bot_s)
        started = time.perf_counter()
        assert pending.result() is not None, "the ply was taken"
        return busy + time.perf_counter() - started

    def waited() -> float:
        started = time.perf_counter()
        assert claims.claim_plies(game, ply, decisions(), seat) is not None
        busy = time.perf_counter() - started
        time.sleep(bot_s)
        return busy

    def bare() -> float:
        with connection.cursor() as cursor:
            started = time.perf_counter()
            cursor.execute("SELECT 1")
            cursor.fetchone()
            return time.perf_counter() - started

    ways: dict[str, Callable[[], float]] = {"sent": sent, "waited": waited}
    samples: dict[str, list[float]] = {name: [] for name in [*ways, "bare"]}
    warm_up = 20
    for i in range(warm_up + claims_count):
        for name, claim in ways.items():
            seat.bank_left_ms = 60_000 - i
            spent = claim()
            ply += 2
            if i >= warm_up:
                samples[name].append(spent * 1000)
        if i >= warm_up:
            samples["bare"].append(bare() * 1000)

    print(
        f"claims bench: {claims_count} claims each way (2 moves and the seat's update), "
        f"the next bot's call taking {bot_s * 1000:g} ms; the referee's time per claim:"
    )
    for name in ways:
        print(f"  {name}: {figures(samples[name])}")
    print(f"  bare round trip (SELECT 1): {figures(samples['bare'])}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=500, help="claims each way")
    parser.add_argument("--bot-ms", type=float, default=2.0, help="the next bot's call")
    args = parser.parse_args(argv)
    if connection.vendor != "postgresql":
        raise SystemExit("needs DATABASE_URL=postgres://... (see the docstring)")
    test_name = f"{connection.settings_dict['NAME']}_bench_claims_{os.getpid()}"
    connection.settings_dict.setdefault("TEST", {})["NAME"] = test_name
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args.claims, args.bot_ms / 1000)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
