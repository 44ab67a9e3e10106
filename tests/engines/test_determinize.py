"""engines.determinize: a state built from one seat's view agrees with it, and nothing more.

Every property is checked on real positions: seeded random games of each
engine stopped at many points (the deal, chance events just resolved, the
middle of an auction, the end of a round, the final position). For a real
state S and a seat s, D = determinize(S.view(s)) must show s exactly the
same view, list s the same legal actions, play on to the end, draw its
hidden parts only from what S has in hidden places (when the view fixes that
multiset), and vary them with the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engines
from engines import CHANCE, Dealer, State
from engines.determinize import determinize
from tests.engines.helpers import random_steps

SLUGS = ("manila", "batavia", "cargo_noir", "grog_island")
GAMES = 7
"""Random games per engine and player count (each stopped at several points)."""


def positions(slug: str, options: dict[str, Any] | None = None) -> list[tuple[State, int]]:
    """(a copy of a real position, a seat) at many points of seeded random games."""
    engine = engines.get(slug)
    found = []
    for n in range(engine.min_players, engine.max_players + 1):
        for seed in range(GAMES):
            picker = random.Random(f"{slug}/{n}/{seed}")
            last = None
            for step, (state, seat, _) in enumerate(random_steps(engine, n, seed, options)):
                if picker.random() < 0.04 or step < 3:
                    watcher = seat if seat >= 0 else picker.randrange(n)
                    found.append((state.clone(), watcher))
                last = state
            assert last is not None
            over = last.clone()  # random_steps applied the last action to ``last``
            assert over.is_over
            found.append((over, picker.randrange(n)))
    return found


class _Positions(dict):
    """``positions(slug)`` per slug, made on first use (not while tests are collected)."""

    def __missing__(self, slug: str) -> list[tuple[State, int]]:
        self[slug] = found = positions(slug)
        return found


POSITIONS = _Positions()


def refused_for_a_pending_draw(slug: str, state: State) -> bool:
    """Grog Island's mid-round card draws of chance do not show in any view (documented)."""
    return (
        slug == "grog_island"
        and state.to_move == [CHANCE]
        and state.queue[0][0] == "draw"
        and state.stage != "setup"
    )


def unseen_black_market_draw(slug: str, state: State) -> bool:
    """Cargo Noir's draw for a ship at the black market does not show in any view (documented)."""
    return slug == "cargo_noir" and any(kind == "seat" for kind, _, _ in state.draws)


def play_out(state: State, seed: int) -> State:
    dealer = Dealer(seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.is_over:
            return state
        seat = state.to_move[0]
        if seat == CHANCE:
            state.apply(CHANCE, dealer.choose(state))
        else:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("the determinized game does not end")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_state_shows_the_seat_exactly_its_view_and_plays_on(slug: str) -> None:
    checked = refused = 0
    for index, (real, seat) in enumerate(POSITIONS[slug]):
        view = real.view(seat)
        if refused_for_a_pending_draw(slug, real):
            with pytest.raises(ValueError, match="card draw of chance"):
                determinize(slug, view, index, players=real.num_players, options=real.options)
            refused += 1
            continue
        made = determinize(slug, view, index, players=real.num_players, options=real.options)
        assert type(made) is type(real)
        assert made.view(seat) == view, (slug, index)
        if unseen_black_market_draw(slug, real):
            play_out(made, index)
            continue
        assert made.to_move == real.to_move, (slug, index)
        for other in range(real.num_players):
            if other == seat or made.to_move == [other]:
                assert made.legal_actions(other) == real.legal_actions(other), (slug, index)
        play_out(made, index)
        checked += 1
    assert checked > 100
    assert refused < checked / 5


@pytest.mark.parametrize(
    ("slug", "options"), [("manila", {"pirates_replace": True}), ("batavia", {"open_track": True})]
)
def test_options_are_honoured(slug: str, options: dict[str, Any]) -> None:
    for index, (real, seat) in enumerate(positions(slug, options)[::3]):
        made = determinize(slug, real.view(seat), index, players=real.num_players, options=options)
        assert made.options == real.options
        assert made.view(seat) == real.view(seat)
        if real.to_move == [seat] and not getattr(real, "boarded", None):
            # Manila's view does not say which pirates boarded (the variant reads it).
            assert made.legal_actions(seat) == real.legal_actions(seat)
        play_out(made, index)


def test_the_same_view_and_seed_give_the_same_state() -> None:
    for slug in SLUGS:
        for index, (real, seat) in enumerate(POSITIONS[slug][::7]):
            if refused_for_a_pending_draw(slug, real):
                continue
            args = (slug, real.view(seat), f"seed-{index}")
            kwargs = {"players": real.num_players, "options": real.options}
            assert determinize(*args, **kwargs).to_json() == determinize(*args, **kwargs).to_json()


# ------------------------------------------------------------ hidden parts
def manila_hidden(state: State, seat: int) -> Counter:
    """Shares dealt face down to the other seats, plus the deck during the deal."""
    found: Counter = Counter()
    for other in range(state.num_players):
        if other != seat:
            for g, name in enumerate(("ginseng", "nutmeg", "silk", "jade")):
                found[name] += state.private[other]["shares"][name] - state.bought[other][g]
    found.update(state.hidden["deck"])
    return +found


def batavia_hidden(state: State, seat: int) -> Counter:
    found: Counter = Counter()
    for other in range(state.num_players):
        if other != seat:
            found.update(state.private[other]["hand"])
    found.update(state.hidden["deck"])
    found.update(state.hidden["discard"])
    return +found


def cargo_noir_hidden(state: State, seat: int) -> Counter:
    return +(Counter(state.hidden["bag"]) + Counter(state.hidden["discard"]))


def grog_objectives_hidden(state: State, seat: int) -> Counter:
    """Objective cards never leave the game: other hands, drawn cards and the deck."""
    found: Counter = Counter(state.hidden["objective_pool"] + state.hidden["objective_bottom"])
    for other in range(state.num_players):
        if other != seat:
            found.update(state.private[other]["objectives"] + state.private[other]["drawn"])
    return found


HIDDEN = {
    "manila": manila_hidden,
    "batavia": batavia_hidden,
    "cargo_noir": cargo_noir_hidden,
    "grog_island": grog_objectives_hidden,
}


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_parts_are_drawn_only_from_what_the_real_state_hides(slug: str) -> None:
    hidden = HIDDEN[slug]
    for index, (real, seat) in enumerate(POSITIONS[slug]):
        if refused_for_a_pending_draw(slug, real) or real.is_over:
            continue
        made = determinize(slug, real.view(seat), index, players=real.num_players)
        assert hidden(made, seat) == hidden(real, seat), (slug, index)


def test_grog_treasures_and_parrots_come_from_the_printed_decks() -> None:
    """Spent treasures and parrots are not in the view: only sub-multisets are fixed."""
    from engines.grog_island.data import PARROT_DECK, TREASURE_DECK

    for index, (real, seat) in enumerate(POSITIONS["grog_island"]):
        if refused_for_a_pending_draw("grog_island", real) or real.is_over:
            continue
        made = determinize("grog_island", real.view(seat), index, players=real.num_players)
        for deck, printed in (("treasure", TREASURE_DECK), ("parrot", PARROT_DECK)):
            cards = Counter(made.hidden[f"{deck}_pool"])
            for other in range(made.num_players):
                cards.update(made.private[other][f"{deck}s"])
            assert not cards - Counter(printed), (index, deck)
            assert len(made.hidden[f"{deck}_pool"]) == len(real.hidden[f"{deck}_pool"])


def secrets(state: State, seat: int) -> Any:
    """What ``seat`` does not see: the other seats' private parts and the hidden dict."""
    return [p for s, p in enumerate(state.private) if s != seat], state.hidden


@pytest.mark.parametrize("slug", SLUGS)
def test_different_seeds_sample_different_hidden_parts(slug: str) -> None:
    varied = 0
    for real, seat in POSITIONS[slug][5::10]:
        if refused_for_a_pending_draw(slug, real) or real.is_over:
            continue
        samples = [
            repr(secrets(determinize(slug, real.view(seat), k, players=real.num_players), seat))
            for k in range(8)
        ]
        varied += len(set(samples)) > 1
    assert varied >= 5


def test_the_seat_keeps_its_own_secrets() -> None:
    for slug in SLUGS:
        for index, (real, seat) in enumerate(POSITIONS[slug][::5]):
            if refused_for_a_pending_draw(slug, real):
                continue
            made = determinize(slug, real.view(seat), index, players=real.num_players)
            assert made.private[seat] == real.private[seat]


# ------------------------------------------------------------------ errors
def a_view(slug: str) -> tuple[dict[str, Any], int]:
    """A mid-game view at a table of three (every engine allows three)."""
    real, seat = next(
        (s, seat) for s, seat in POSITIONS[slug][40:] if not s.is_over and s.num_players == 3
    )
    return real.view(seat), real.num_players


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("other", SLUGS)
def test_a_view_of_another_engine_is_refused(slug: str, other: str) -> None:
    if slug == other:
        return
    view, players = a_view(other)
    engine = engines.get(slug)
    players = min(max(players, engine.min_players), engine.max_players)
    with pytest.raises(ValueError, match=slug):
        determinize(slug, view, 1, players=players)


@pytest.mark.parametrize("slug", SLUGS)
def test_malformed_views_are_refused_with_a_value_error(slug: str) -> None:
    view, players = a_view(slug)
    broken: list[Any] = [
        None,
        [],
        {},
        {**view, "you": "0"},
        {key: value for key, value in view.items() if key != "private"},
        {**view, "you": players},
        {**view, "players": view["players"][:1]},
        *([] if slug == "cargo_noir" else [{**view, "private": {}}]),  # Cargo Noir has no secrets
    ]
    for key in view:
        if key not in ("you", "private"):
            broken.append({k: v for k, v in view.items() if k != key})
            broken.append({**view, key: "nonsense"})
    for bad in broken:
        with pytest.raises(ValueError):
            determinize(slug, bad, 3, players=players)


def test_unknown_engines_bad_seeds_and_bad_player_counts_are_refused() -> None:
    view, _ = a_view("manila")
    with pytest.raises(ValueError, match="unknown engine"):
        determinize("chess", view, 1)
    with pytest.raises(ValueError, match="seed"):
        determinize("manila", view, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        determinize("manila", view, 1, players=9)
    with pytest.raises(ValueError):
        determinize("manila", view, 1, options={"no_such_option": True})


def test_a_view_from_json_works_like_the_view_itself() -> None:
    import json

    real, seat = POSITIONS["batavia"][30]
    text = json.dumps(real.view(seat))
    made = determinize("batavia", json.loads(text), 5)
    assert json.dumps(made.view(seat)) == text
