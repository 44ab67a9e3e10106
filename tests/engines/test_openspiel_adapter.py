"""OpenSpiel on our engines (``engines.openspiel_adapter``): its own checks, and its search.

Needs ``open_spiel`` (the ``bench`` extra installs it); without
it every test here is skipped, saying so.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed: pip install -e '.[bench]'"
)

import numpy as np  # noqa: E402  (open_spiel brings it)

import engines  # noqa: E402
from engines import CHANCE, Dealer, openspiel_adapter  # noqa: E402
from engines.base import same_json  # noqa: E402
from engines.replay import replay  # noqa: E402

SLUGS = sorted(openspiel_adapter.TABLES)
NAMES = openspiel_adapter.register()


def load(slug: str, players: int = 3, seed: int = 0):
    return pyspiel.load_game(openspiel_adapter.PREFIX + slug, {"players": players, "seed": seed})


def test_every_engine_is_registered_with_chance_and_imperfect_information() -> None:
    assert sorted(NAMES) == [f"python_hm_{slug}" for slug in SLUGS]
    for slug in SLUGS:
        kind = load(slug).get_type()
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.provides_information_state_string and kind.provides_observation_string


@pytest.mark.parametrize("slug", SLUGS)
def test_openspiels_random_simulation_check_passes(slug: str) -> None:
    """OpenSpiel's own C++ checks over a random game: ids, chance sums, returns, clones."""
    pyspiel.random_sim_test(load(slug), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("slug", SLUGS)
def test_action_ids_are_stable_and_decode_to_the_engines_actions(slug: str) -> None:
    """The id of an action is the same in every position and decodes back to the action."""
    game = load(slug)
    codec = openspiel_adapter.setup_of(game).codec
    seen: dict[str, int] = {}
    state = engines.get(slug).new_game(3)
    dealer, rng = Dealer(5), random.Random(5)
    while not state.is_over:
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, dealer.choose(state))
            continue
        legal = state.legal_actions(seat)
        ids = [codec.encode(action) for action in legal]
        assert len(set(ids)) == len(ids)
        for action, number in zip(legal, ids, strict=True):
            assert same_json(codec.decode(number), action)
            assert seen.setdefault(openspiel_adapter._key(action), number) == number
        state.apply(seat, rng.choice(legal))


def test_an_action_outside_the_table_is_refused_by_name() -> None:
    codec = openspiel_adapter.setup_of(load("manila")).codec
    with pytest.raises(ValueError, match="no action id for type 'fly'"):
        codec.encode({"type": "fly"})
    with pytest.raises(ValueError, match="amount=5000 is outside the id table"):
        codec.encode({"type": "bid", "amount": 5000})
    with pytest.raises(ValueError, match="outside 0"):
        codec.decode(codec.size)


def test_observation_strings_show_a_seat_its_own_view_only() -> None:
    state = load("batavia").new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[0][0])
    engine_state = state.engine_state
    for seat in range(3):
        assert state.observation_string(seat) == openspiel_adapter._key(engine_state.view(seat))
    assert state.observation_string(0) != state.observation_string(1)  # different hands


def test_a_resampled_state_keeps_the_seats_information_state() -> None:
    state = load("grog_island").new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node() or rng.random() < 0.97:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("slug", SLUGS)
def test_openspiels_ismcts_bot_plays_a_whole_game_that_our_engine_replays(slug: str) -> None:
    """OpenSpiel's ISMCTS in seat 0, random seats elsewhere, chance by our Dealer.

    Every id is turned back into the engine's JSON action; ``engines.replay``
    (the referee's replay of a game record) must rebuild the same final state.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(slug, seed=1)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        uct_c=1.0,
        max_simulations=2,
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    dealer, rng = Dealer(7), random.Random(7)
    record: list[tuple[int, dict]] = []
    searched = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            action = dealer.choose(state.engine_state)
            number = openspiel_adapter.setup_of(game).chance_codec.encode(action)
            record.append((CHANCE, action))
        else:
            legal = state.legal_actions()
            if player == 0 and len(legal) > 1:
                number = bot.step(state)
                searched += 1
            else:
                number = rng.choice(legal)
            assert number in legal
            record.append((player, openspiel_adapter.engine_action(state, number)))
        state.apply_action(number)
    assert searched > 10
    final = replay(slug, 3, None, record)
    assert final.is_over
    assert final.to_json() == state.engine_state.to_json()
    assert state.returns() == [(3 - r) / 2 for r in final.outcome()["ranks"]]
