"""Rating math: reference values from the issue, invariants, validation, registry."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import systems
from ratings.systems import (
    SYSTEMS,
    conservative_score,
    elo_rate,
    elo_score,
    get_system,
    openskill_rate,
    trueskill_rate,
)

DEFAULT = (25.0, 25.0 / 3.0)


def assert_pairs(actual, expected, tol):
    assert len(actual) == len(expected)
    for (mu, sigma), (want_mu, want_sigma) in zip(actual, expected, strict=True):
        assert mu == pytest.approx(want_mu, abs=tol)
        assert sigma == pytest.approx(want_sigma, abs=tol)


# --- TrueSkill reference values (tolerance 0.001) ---------------------------

TRUESKILL_REFERENCES = {
    "1v1 win": ([1, 2], [(29.396, 7.171), (20.604, 7.171)]),
    "1v1 draw": ([1, 1], [(25.000, 6.458), (25.000, 6.458)]),
    "3 players": ([1, 2, 3], [(31.675, 6.656), (25.000, 6.208), (18.325, 6.656)]),
    "4 players": (
        [1, 2, 3, 4],
        [(33.207, 6.348), (27.401, 5.787), (22.599, 5.787), (16.793, 6.348)],
    ),
    "5 players": (
        [1, 2, 3, 4, 5],
        [(34.363, 6.136), (29.058, 5.536), (25.000, 5.420), (20.942, 5.536), (15.637, 6.136)],
    ),
}


@pytest.mark.parametrize("case", TRUESKILL_REFERENCES)
def test_trueskill_reference_values_from_defaults(case):
    ranks, expected = TRUESKILL_REFERENCES[case]
    assert_pairs(trueskill_rate([DEFAULT] * len(ranks), ranks), expected, tol=0.001)


def test_trueskill_maps_results_back_to_input_order():
    # The 3-player reference, with the players listed as 3rd, 1st, 2nd.
    rated = trueskill_rate([DEFAULT] * 3, [3, 1, 2])
    assert_pairs(rated, [(18.325, 6.656), (31.675, 6.656), (25.000, 6.208)], tol=0.001)


def test_trueskill_tie_in_the_middle_of_four():
    first, second, third, last = trueskill_rate([DEFAULT] * 4, [1, 2, 2, 4])
    # Winner and loser move symmetrically; the tied pair shares sigma and
    # stays centred on 25 between them.
    assert first[0] - 25.0 == pytest.approx(25.0 - last[0], abs=1e-6)
    assert second[1] == pytest.approx(third[1], abs=1e-9)
    assert second[0] + third[0] == pytest.approx(50.0, abs=1e-6)
    assert last[0] < second[0] < first[0] and last[0] < third[0] < first[0]
    # The package's iterative message passing converges to min_delta=1e-4,
    # which leaves the tied pair's means a little apart (about 0.014), not exact.
    assert abs(second[0] - third[0]) < 0.02


def test_trueskill_draw_probability_changes_a_draw():
    default_draw = trueskill_rate([DEFAULT, DEFAULT], [1, 1])
    likelier_draw = trueskill_rate([DEFAULT, DEFAULT], [1, 1], draw_probability=0.5)
    assert likelier_draw[0][0] == pytest.approx(25.0)
    # A draw is less informative when draws are common: sigma shrinks less.
    assert likelier_draw[0][1] > default_draw[0][1] + 0.05


def test_trueskill_explicit_defaults_equal_implicit_ones():
    ratings, ranks = [(30.0, 5.0), (22.0, 7.0), (25.0, 2.0)], [2, 1, 3]
    explicit = trueskill_rate(ratings, ranks, **SYSTEMS["trueskill"].default_params)
    assert explicit == trueskill_rate(ratings, ranks)


def test_trueskill_environment_is_built_once_per_parameter_set():
    key = (("beta", 3.0),)
    assert systems._trueskill_env(key) is systems._trueskill_env(key)
    assert systems._trueskill_env(key) is not systems._trueskill_env(())
    assert systems._trueskill_env(key).beta == 3.0


# --- Elo ---------------------------------------------------------------------


def test_elo_four_equal_players_placing_one_to_four():
    rated = elo_rate([1500.0] * 4, [1, 2, 3, 4], k=32)
    assert rated == pytest.approx([1516.000, 1505.333, 1494.667, 1484.000], abs=0.001)


def test_elo_favourites_finishing_in_reverse_order():
    rated = elo_rate([1600.0, 1500.0, 1400.0, 1300.0], [4, 3, 2, 1], k=32)
    assert rated == pytest.approx([1576.012, 1491.896, 1408.104, 1323.988], abs=0.001)


def test_elo_two_player_game_is_classic_elo():
    # 1700 vs 1500: expected 1/(1+10^(-0.5)) for the favourite.
    expected = 1.0 / (1.0 + 10.0**-0.5)
    rated = elo_rate([1700.0, 1500.0], [2, 1], k=20)
    assert rated == pytest.approx([1700 - 20 * expected, 1500 + 20 * expected], abs=1e-9)


def test_elo_ties_score_half():
    assert elo_rate([1500.0] * 3, [1, 1, 1]) == pytest.approx([1500.0] * 3, abs=1e-12)
    # A draw between unequal players moves points from the stronger one.
    stronger, weaker = elo_rate([1600.0, 1400.0], [1, 1], k=32)
    assert stronger < 1600.0 and weaker > 1400.0
    # Tied winners of four equal players: each gets +1 (beat 2) + 0.5 (tie), minus 1.5.
    assert elo_rate([1500.0] * 4, [1, 1, 3, 4], k=30) == pytest.approx(
        [1510.0, 1510.0, 1495.0, 1485.0], abs=1e-9
    )


def test_elo_k_scales_the_change():
    ratings, ranks = [1520.0, 1480.0, 1610.0], [2, 1, 3]
    small = elo_rate(ratings, ranks, k=16)
    large = elo_rate(ratings, ranks, k=32)
    for before, after_small, after_large in zip(ratings, small, large, strict=True):
        assert after_large - before == pytest.approx(2 * (after_small - before), abs=1e-9)


def test_elo_survives_absurd_rating_gaps():
    rated = elo_rate([1e6, -1e6], [1, 2])
    assert rated == pytest.approx([1e6, -1e6], abs=1e-9)


rating_values = st.floats(min_value=0.0, max_value=3500.0, allow_nan=False)


@st.composite
def elo_games(draw):
    count = draw(st.integers(min_value=2, max_value=8))
    ratings = draw(st.lists(rating_values, min_size=count, max_size=count))
    ranks = draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
    return ratings, ranks


@settings(max_examples=300, deadline=None)
@given(elo_games(), st.floats(min_value=1.0, max_value=64.0))
def test_elo_sum_is_conserved_within_a_game(game, k):
    ratings, ranks = game
    rated = elo_rate(ratings, ranks, k=k)
    assert math.fsum(rated) == pytest.approx(math.fsum(ratings), abs=1e-7)


@settings(max_examples=200, deadline=None)
@given(elo_games(), st.randoms(use_true_random=False))
def test_elo_does_not_depend_on_listing_order(game, rng):
    ratings, ranks = game
    order = list(range(len(ratings)))
    rng.shuffle(order)
    rated = elo_rate(ratings, ranks)
    shuffled = elo_rate([ratings[i] for i in order], [ranks[i] for i in order])
    assert shuffled == pytest.approx([rated[i] for i in order], abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(elo_games())
def test_elo_better_rank_never_gains_less_among_equals(game):
    _, ranks = game
    rated = elo_rate([1500.0] * len(ranks), ranks)
    for i, rank_i in enumerate(ranks):
        for j, rank_j in enumerate(ranks):
            if rank_i < rank_j:
                assert rated[i] > rated[j]
            elif rank_i == rank_j:
                assert rated[i] == pytest.approx(rated[j], abs=1e-9)


# --- OpenSkill -----------------------------------------------------------------


def test_openskill_plackett_luce_reference_win():
    # openskill 6.2.0, quoted to 4 decimals in the issue, so compared at 1e-4.
    rated = openskill_rate([DEFAULT, DEFAULT], [1, 2])
    assert_pairs(rated, [(27.6354, 8.0659), (22.3646, 8.0659)], tol=1e-4)


def test_openskill_draw_keeps_means():
    (mu_a, sigma_a), (mu_b, sigma_b) = openskill_rate([DEFAULT, DEFAULT], [1, 1])
    assert mu_a == pytest.approx(25.0, abs=1e-9) and mu_b == pytest.approx(25.0, abs=1e-9)
    assert sigma_a == pytest.approx(sigma_b, abs=1e-12)


def test_openskill_maps_results_back_to_input_order():
    ratings = [(31.0, 4.0), (24.0, 6.0), (19.0, 8.0), (27.0, 3.0)]
    ranks = [2, 4, 1, 3]
    rated = openskill_rate(ratings, ranks)
    order = [2, 0, 3, 1]
    reordered = openskill_rate([ratings[i] for i in order], [ranks[i] for i in order])
    assert_pairs(reordered, [rated[i] for i in order], tol=1e-12)


def test_openskill_parameters_reach_the_model():
    wide = openskill_rate([DEFAULT, DEFAULT], [1, 2], beta=10.0)
    narrow = openskill_rate([DEFAULT, DEFAULT], [1, 2])
    # A noisier game (larger beta) says less about skill: smaller update.
    assert wide[0][0] - 25.0 < narrow[0][0] - 25.0
    assert systems._openskill_model((("beta", 10.0),)).beta == 10.0


def test_openskill_tied_players_share_an_update():
    rated = openskill_rate([DEFAULT] * 4, [1, 2, 2, 4])
    assert_pairs([rated[1]], [rated[2]], tol=1e-12)
    assert rated[3][0] < rated[1][0] < rated[0][0]


# --- Shared behaviour and validation ------------------------------------------

MU_SIGMA_RATERS = [trueskill_rate, openskill_rate]


@pytest.mark.parametrize("rate", MU_SIGMA_RATERS)
def test_inputs_are_not_mutated(rate):
    ratings, ranks = [(25.0, 8.0), (30.0, 4.0)], [2, 1]
    rate(ratings, ranks)
    assert ratings == [(25.0, 8.0), (30.0, 4.0)] and ranks == [2, 1]


BAD_RESULTS = {
    "lengths differ": ([1, 2, 3], "3 ratings but 2 ranks"),
    "one player": ([1], "at least 2 players"),
    "rank zero": ([0, 1], "positive integers"),
    "negative rank": ([1, -2], "positive integers"),
    "float rank": ([1.0, 2], "positive integers"),
    "bool rank": ([True, 2], "positive integers"),
    "string rank": (["1", 2], "positive integers"),
}


@pytest.mark.parametrize("case", BAD_RESULTS)
@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_bad_results_are_refused_clearly(system, case):
    ranks, message = BAD_RESULTS[case]
    initial = SYSTEMS[system].default_initial
    count = 3 if case == "lengths differ" else len(ranks)
    ratings = [initial] * count
    if case == "lengths differ":
        ranks = [1, 2]
    with pytest.raises(ValueError, match=message):
        SYSTEMS[system].rate(ratings, ranks)


@pytest.mark.parametrize("rate", MU_SIGMA_RATERS)
@pytest.mark.parametrize(
    "bad", [(25.0, 0.0), (25.0, -1.0), (math.nan, 8.0), (25.0,), 25.0, ("a", "b")]
)
def test_bad_mu_sigma_ratings_are_refused(rate, bad):
    with pytest.raises(ValueError, match="mu, sigma"):
        rate([DEFAULT, bad], [1, 2])


@pytest.mark.parametrize("bad", [math.inf, math.nan])
def test_bad_elo_ratings_are_refused(bad):
    with pytest.raises(ValueError, match="finite"):
        elo_rate([1500.0, bad], [1, 2])


@pytest.mark.parametrize("k", [0.0, -32.0, math.inf])
def test_bad_elo_k_is_refused(k):
    with pytest.raises(ValueError, match="K"):
        elo_rate([1500.0, 1500.0], [1, 2], k=k)


@pytest.mark.parametrize(
    ("rate", "params", "message"),
    [
        (trueskill_rate, {"gamma": 1.0}, "unknown trueskill parameter"),
        (trueskill_rate, {"beta": 0.0}, "'beta' must be > 0"),
        (trueskill_rate, {"draw_probability": 1.0}, "below 1"),
        (trueskill_rate, {"tau": "0.1"}, "must be a number"),
        (openskill_rate, {"kappa": -1.0}, "finite and >= 0"),
        (openskill_rate, {"tau": 0.0}, "'tau' must be > 0"),
        (openskill_rate, {"limit_sigma": True}, "unknown openskill parameter"),
    ],
)
def test_bad_parameters_are_refused(rate, params, message):
    with pytest.raises(ValueError, match=message):
        rate([DEFAULT, DEFAULT], [1, 2], **params)


# --- Leaderboard scores and the registry --------------------------------------


def test_leaderboard_scores():
    assert conservative_score((25.0, 25.0 / 3.0)) == pytest.approx(0.0, abs=1e-12)
    assert conservative_score((30.0, 2.0)) == pytest.approx(24.0)
    assert elo_score(1543.5) == 1543.5


def test_registry_names_scores_and_library_versions():
    assert set(SYSTEMS) == {"elo", "trueskill", "openskill"}
    assert SYSTEMS["elo"].score is elo_score
    assert SYSTEMS["trueskill"].score is conservative_score
    assert SYSTEMS["openskill"].score is conservative_score
    # The reference values above hold for exactly these releases.
    assert SYSTEMS["trueskill"].library_version == "trueskill==0.4.5"
    assert SYSTEMS["openskill"].library_version == "openskill==6.2.0"
    assert SYSTEMS["elo"].library_version.startswith("harbormaster-elo==")


def test_registry_default_params_match_the_issue():
    assert dict(SYSTEMS["elo"].default_params) == {"k": 32.0}
    assert dict(SYSTEMS["trueskill"].default_params) == pytest.approx(
        {"mu": 25.0, "sigma": 25 / 3, "beta": 25 / 6, "tau": 25 / 300, "draw_probability": 0.10}
    )
    assert SYSTEMS["elo"].default_initial == 1500.0
    assert SYSTEMS["trueskill"].default_initial == pytest.approx(DEFAULT)
    assert SYSTEMS["openskill"].default_initial == pytest.approx(DEFAULT)


def test_registry_params_and_initial_rating_honour_overrides():
    trueskill = SYSTEMS["trueskill"]
    stored = trueskill.params({"draw_probability": 0.0})
    assert stored["draw_probability"] == 0.0 and stored["beta"] == pytest.approx(25 / 6)
    assert trueskill.initial_rating({"mu": 1000.0, "sigma": 300.0}) == (1000.0, 300.0)
    assert SYSTEMS["elo"].initial_rating({"k": 10.0}) == 1500.0
    with pytest.raises(ValueError, match="unknown elo parameter"):
        SYSTEMS["elo"].params({"initial": 1200.0})


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_registry_rates_a_game_from_initial_ratings(name):
    system = get_system(name)
    params = system.params()
    initial = system.initial_rating(params)
    rated = system.rate([initial] * 4, [1, 2, 3, 4], **params)
    scores = [system.score(rating) for rating in rated]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1]


def test_unknown_system_is_refused():
    with pytest.raises(ValueError, match="unknown rating system 'glicko'"):
        get_system("glicko")
