"""The harbormaster-engines distribution's own tests: whole seeded games of each engine.

Standard library only (``unittest``), so they run in a virtualenv where
nothing but the wheel is installed::

    python -m unittest discover -s engines/tests -t engines/tests

This folder has no ``__init__.py`` and is not listed in
``engines/pyproject.toml``: it never becomes ``engines.tests`` in the wheel.
The server's own, much larger engine suite is ``tests/engines`` (pytest);
these check what a bot author relies on once the wheel is installed: the
four games are there, a seed fixes a whole game, ``engines.replay`` and
``from_json`` rebuild it, and a seat's view shows no other seat's secrets.
"""

from __future__ import annotations

import copy
import json
import random
import unittest
from typing import Any

import engines

SLUGS = ("batavia", "cargo_noir", "grog_island", "manila")
MAX_STEPS = 20_000


def play(slug: str, num_players: int, seed: int) -> tuple[engines.State, list[tuple[int, Any]]]:
    """A whole game: chance from ``Dealer(seed)``, players pick at random from ``Random(seed)``."""
    state = engines.get(slug).new_game(num_players)
    dealer = engines.Dealer(seed)
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    for _ in range(MAX_STEPS):
        if state.is_over:
            return state, log
        seat = state.to_move[0]
        if seat == engines.CHANCE:
            action = dealer.choose(state)
        else:
            action = rng.choice(state.legal_actions(seat))
        log.append((seat, copy.deepcopy(action)))
        state.apply(seat, action)
    raise AssertionError(f"{slug}: no end after {MAX_STEPS} steps (seed {seed})")


def as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def scramble(value: Any, strings: list[str]) -> Any:
    """The same JSON shape (list lengths, dict keys) with every leaf changed.

    Ints grow, bools flip, strings become other strings of the secrets,
    lists are reversed: a view that reads a secret's value, not only its
    size, changes.
    """
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        others = [s for s in strings if s != value]
        return others[len(value) % len(others)] if others else value + "?"
    if isinstance(value, list):
        return [scramble(item, strings) for item in reversed(value)]
    if isinstance(value, dict):
        return {key: scramble(item, strings) for key, item in value.items()}
    return value


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return set().union(*(strings_in(item) for item in value))
    if isinstance(value, dict):
        return set().union(*(strings_in(item) for item in value.values()))
    return set()


def with_secrets_scrambled(state: engines.State, keep_seat: int | None) -> engines.State:
    """A copy of ``state`` whose hidden part and other seats' private parts are changed."""
    data = copy.deepcopy(state.to_json())
    strings = sorted(strings_in(data["hidden"]) | strings_in(data["private"]))
    data["hidden"] = scramble(data["hidden"], strings)
    data["private"] = [
        private if seat == keep_seat else scramble(private, strings)
        for seat, private in enumerate(data["private"])
    ]
    return type(state).engine.from_json(data)


class TheFourGames(unittest.TestCase):
    def test_every_game_is_installed(self) -> None:
        self.assertEqual(tuple(engine.slug for engine in engines.all_engines()), SLUGS)
        with self.assertRaises(engines.InvalidGame):
            engines.get("chess")


class SeededGames(unittest.TestCase):
    """For each engine, at its smallest and largest table."""

    def cases(self) -> list[tuple[str, int]]:
        found = []
        for slug in SLUGS:
            engine = engines.get(slug)
            found += [(slug, engine.min_players), (slug, engine.max_players)]
        return found

    def test_a_seeded_random_game_ends_with_an_outcome(self) -> None:
        for slug, n in self.cases():
            with self.subTest(engine=slug, players=n):
                state, log = play(slug, n, seed=11)
                self.assertTrue(state.is_over)
                self.assertGreater(len(log), n)
                outcome = state.outcome()
                self.assertEqual(len(outcome["scores"]), n)
                self.assertEqual(sorted(outcome["ranks"])[0], 1)

    def test_the_same_seed_plays_the_same_game(self) -> None:
        for slug, n in self.cases():
            with self.subTest(engine=slug, players=n):
                first, first_log = play(slug, n, seed=5)
                second, second_log = play(slug, n, seed=5)
                self.assertEqual(first_log, second_log)
                self.assertEqual(as_json(first.to_json()), as_json(second.to_json()))
                self.assertEqual(first.outcome(), second.outcome())
                _, other_log = play(slug, n, seed=6)
                self.assertNotEqual(first_log, other_log, "the seed must matter")

    def test_replay_and_from_json_rebuild_the_final_state(self) -> None:
        for slug, n in self.cases():
            with self.subTest(engine=slug, players=n):
                final, log = play(slug, n, seed=3)
                replayed = engines.replay(slug, n, final.options, log)
                self.assertEqual(as_json(replayed.to_json()), as_json(final.to_json()))
                self.assertEqual(replayed.outcome(), final.outcome())
                restored = engines.get(slug).from_json(json.loads(json.dumps(final.to_json())))
                self.assertEqual(as_json(restored.to_json()), as_json(final.to_json()))

    def test_replay_names_the_ply_of_an_action_that_does_not_fit(self) -> None:
        for slug, n in self.cases():
            with self.subTest(engine=slug, players=n):
                _, log = play(slug, n, seed=3)
                seat, _ = next(step for step in log if step[0] != engines.CHANCE)
                ply = log.index(next(step for step in log if step[0] == seat))
                broken = [*log[:ply], (seat, {"type": "no_such_action"}), *log[ply + 1 :]]
                with self.assertRaisesRegex(engines.EngineError, f"ply {ply}"):
                    engines.replay(slug, n, None, broken)


class Views(unittest.TestCase):
    """A seat sees the public state and its own secrets, nothing of anyone else's."""

    def sampled_states(self, slug: str, n: int, seed: int, every: int = 17) -> list[engines.State]:
        _, log = play(slug, n, seed)
        state = engines.get(slug).new_game(n)
        sampled = []
        for ply, (seat, action) in enumerate(log):
            if ply % every == 0 and not state.is_over:
                sampled.append(state.clone())
            state.apply(seat, action)
        return sampled

    def test_a_seat_view_is_the_public_view_plus_its_own_private_part(self) -> None:
        for slug in SLUGS:
            n = engines.get(slug).max_players
            for state in self.sampled_states(slug, n, seed=2):
                spectator = state.view(None)
                self.assertNotIn("private", spectator)
                for seat in range(n):
                    view = state.view(seat)
                    self.assertEqual(view.pop("you"), seat)
                    self.assertEqual(view.pop("private"), state.to_json()["private"][seat])
                    self.assertEqual(view, spectator, f"{slug}: seat {seat}'s public part differs")

    def test_changing_other_seats_secrets_changes_nothing_a_seat_sees(self) -> None:
        for slug in SLUGS:
            n = engines.get(slug).max_players
            changed = 0
            for state in self.sampled_states(slug, n, seed=4, every=40):
                spectator = with_secrets_scrambled(state, keep_seat=None)
                self.assertEqual(spectator.view(None), state.view(None), f"{slug}: spectator")
                for seat in range(n):
                    other = with_secrets_scrambled(state, keep_seat=seat)
                    changed += as_json(other.to_json()) != as_json(state.to_json())
                    self.assertEqual(other.view(seat), state.view(seat), f"{slug}: seat {seat}")
                    self.assertEqual(other.legal_actions(seat), state.legal_actions(seat))
            self.assertGreater(changed, 0, f"{slug}: the scrambling changed no secret")


if __name__ == "__main__":
    unittest.main()
