"""Games with a real move log, for tests that read games, and people playing through the referee.

``played_game`` plays an engine with ``Dealer(seed)`` for chance and random legal
actions for the seats, and stores the moves, seats and (when finished) the
outcome exactly as the referee would, but without it: fast, and usable inside
an ordinary (rolled-back) test transaction. ``play_as_people`` instead plays
a running game through ``referee.submit``, as people would, and
``fast_forward`` logs most of a running game's moves at once, as the referee
would, so that sockets or the referee play only its last stretch.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.utils import timezone

import engines
from engines import CHANCE, Dealer, State
from games.models import Competitor, Game, Move, Outcome, Seat
from games.referee import claims
from games.referee import steps as referee
from games.referee.decisions import Decision
from games.referee.statecache import load_state
from games.selectors.ranks import final_ranks


def played_game(
    engine: str,
    competitors: Sequence[Competitor],
    *,
    seed: str = "test-seed",
    plies: int | None = None,
    rng_seed: int = 0,
    rated: bool = False,
) -> Game:
    """A finished game (or, with ``plies``, a running one stopped after that many moves)."""
    rules = engines.get(engine)
    options = rules.check_setup(len(competitors), {})
    state = rules.new_game(len(competitors), options)
    dealer, rng = Dealer(seed), random.Random(rng_seed)
    log: list[tuple[int, dict]] = []
    while not state.is_over and (plies is None or len(log) < plies):
        seat = state.to_move[0]
        action = dealer.choose(state) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append((seat, action))
    finished = state.is_over
    now = timezone.now()
    game = Game.objects.create(
        engine=engine,
        engine_version=rules.version,
        num_players=len(competitors),
        options=options,
        seed=seed,
        seed_commitment=engines.seed_commitment(seed),
        status=Game.Status.FINISHED if finished else Game.Status.RUNNING,
        rated=rated,
        next_ply=len(log),
        started_at=now,
        last_progress_at=now,
        finished_at=now if finished else None,
    )
    for position, competitor in enumerate(competitors):
        Seat.objects.create(game=game, position=position, competitor=competitor)
    Move.objects.bulk_create(
        Move(
            game=game,
            ply=ply,
            seat=seat,
            action=action,
            source=Move.Source.CHANCE if seat == CHANCE else Move.Source.PERSON,
        )
        for ply, (seat, action) in enumerate(log)
    )
    if finished:
        result = state.outcome()
        ranks = final_ranks(result["ranks"], [False] * len(competitors))
        Outcome.objects.create(game=game, scores=result["scores"], ranks=ranks)
    return game


def play_as_people(
    game: Game, rng: random.Random, *, absent: int | None = None, limit: int = 20_000
) -> None:
    """Submit random legal moves for whoever is to move until the game ends.

    The referee plays chance itself, and never waits for the ``absent`` seat
    (one that forfeited): both are asserted.
    """
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return
        state = load_state(game)
        seat = state.to_move[0]
        assert seat != CHANCE, "advance should have played chance already"
        assert seat != absent, "a forfeited seat is never waited for"
        action = rng.choice(state.legal_actions(seat))
        referee.submit(game.pk, game.next_ply, seat, Decision(action))
    raise AssertionError("game did not end")


def fast_forward(game: Game, rng: random.Random, *, leave: int) -> int:
    """Log a running game's moves up to ``leave`` person moves before its end, all at once.

    The people choose with ``rng`` (a random legal action, as ``play_as_people``
    and the play sockets' tests do) and chance is the seed's
    (``Dealer(game.seed)``, as the referee plays it); the moves are logged
    with the referee's own write (``claims.claim_plies``), all in one
    statement, so hundreds of plies cost a fraction of a second. It stops at
    a person's turn, with ``rng`` where those people's choices left it: the
    game then ends after exactly ``leave`` more random person moves chosen
    with ``rng``. Returns the number of plies logged.
    """
    game.refresh_from_db()
    start = load_state(game)
    assert start.to_move and start.to_move[0] != CHANCE, "call it at a person's turn"
    dealer = Dealer(game.seed)

    def next_decision(state: State, chooser: random.Random) -> tuple[int, Decision]:
        seat = state.to_move[0]
        if seat == CHANCE:
            return seat, Decision(dealer.choose(state), source=Move.Source.CHANCE)
        return seat, Decision(chooser.choice(state.legal_actions(seat)))

    probe, state, total = random.Random(), start.clone(), 0
    probe.setstate(rng.getstate())
    while not state.is_over:  # how many person moves the rest of the game takes
        seat, decision = next_decision(state, probe)
        state.apply(seat, decision.action)
        total += seat != CHANCE
    state, made, decisions = start.clone(), 0, []
    while made < total - leave or state.to_move[0] == CHANCE:
        seat, decision = next_decision(state, rng)
        state.apply(seat, decision.action)
        decisions.append((seat, decision))
        made += seat != CHANCE
    if decisions:
        assert claims.claim_plies(game, game.next_ply, decisions), "the ply was taken"
    return len(decisions)
