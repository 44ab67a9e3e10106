"""OpenSpiel on our engines: each engine registered as a Python game of OpenSpiel's API.

    pip install './engines' 'open_spiel>=1.5'      # or the server's `.[bench]` / `.[dev]` extra
    import pyspiel
    from engines import openspiel_adapter
    openspiel_adapter.register()               # python_hm_manila, python_hm_batavia, ...
    game = pyspiel.load_game("python_hm_batavia", {"players": 3})

Optional: nothing else in ``engines`` imports this module; importing it
without ``open_spiel`` installed raises ``ImportError`` (no module ``pyspiel``).

What OpenSpiel needs and how the engines give it:

* **Actions are integers from a fixed space.** OpenSpiel's algorithms key
  their statistics by action id across states and samples, so an id must
  mean the same action everywhere (an index into one position's legal list
  would not). Each engine gets a table ``{action type: ((field, domain),
  ...)}`` listing every field of every action type and every value it can
  take (names from the engine's own data, integers in a bounded range,
  ordered lists as every sequence up to a length); an action's id is its
  type's offset plus the mixed-radix number of its field values. So ids are
  stable across states, runs and machines, and an action outside the table
  is refused with a ``ValueError`` naming it (OpenSpiel's random-simulation
  check plays whole games through the table). Chance outcomes have their own
  table and id space (``max_chance_outcomes``).
* **Chance** is OpenSpiel's chance player, with the engine's
  ``chance_outcomes`` and their probabilities.
* **Information.** ``observation_string(p)`` is seat ``p``'s view (what the
  referee sends a bot); ``information_state_string(p)`` adds a digest of
  the public event log, which makes it a history of what ``p`` saw.
  ``resample_from_infostate`` draws a full state from that with
  ``engines.determinize`` (so OpenSpiel's ISMCTS bot searches without
  looking at secrets).
* **Returns** at the end: ``(players - rank) / (players - 1)`` per seat,
  1 for a sole or shared first place, 0 for the last (general sum).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pyspiel  # not installed: ImportError "No module named 'pyspiel'"

from . import registry
from .base import CHANCE, Action, State
from .batavia import rules as batavia_rules
from .cargo_noir import data as cargo_data
from .determinize import determinize
from .grog_island import data as grog_data
from .manila import data as manila_data

PREFIX = "python_hm_"
"""OpenSpiel short names: ``python_hm_<engine slug>``."""
MAX_GAME_LENGTH = 10_000
"""Moves (chance included) no game of ours reaches; OpenSpiel wants a bound."""

Domain = tuple[Any, ...]
Table = Mapping[str, Sequence[tuple[str, Domain]]]


class _Absent:
    """The value of an optional field an action leaves out."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
"""Put in a field's domain when the field may be left out (Grog Island's parrot card)."""


def numbers(low: int, high: int) -> Domain:
    """The integers ``low..high``."""
    return tuple(range(low, high + 1))


def sequences(values: Iterable[str], longest: int) -> Domain:
    """Every ordered list of ``values`` (repeats allowed) of length 0..``longest``."""
    values = tuple(values)
    return tuple(
        list(seq) for n in range(longest + 1) for seq in itertools.product(values, repeat=n)
    )


AMOUNTS = numbers(0, 999)
"""Bids and payments: far above any sum a game reaches."""

_M = manila_data.GOODS
MANILA: Table = {
    "bid": (("amount", AMOUNTS),),
    "more_bids": (),
    "pass": (),
    "leave_ashore": (("good", _M),),
    "start_boat": (("good", _M), ("space", numbers(0, manila_data.MAX_START))),
    "place": (("space", (*manila_data.SPACE_NAMES, *_M, manila_data.PIRATE)),),
    "pilot": (("good", _M), ("move", numbers(-2, 2))),
    "pilot_stop": (),
    "harbor_order": (("goods", sequences(_M, len(_M))),),
    "shipyard_order": (("goods", sequences(_M, len(_M))),),
    "buy": (("good", _M),),
    "skip_buy": (),
    "redeem": (("count", numbers(0, 20)),),
    "board": (("good", _M),),
    "stay": (),
    "send": (("good", _M), ("to", ("harbor", "shipyard"))),
}
MANILA_CHANCE: Table = {
    "deal": (("seat", numbers(0, 4)), ("good", _M)),
    "roll": (("good", _M), ("value", numbers(1, 6))),
}

_C = batavia_rules.COMPANIES
BATAVIA: Table = {
    "pass": (),
    "bid": (("amount", AMOUNTS),),
    "draw": (),
    "play": (("company", _C),),
    "done": (),
    "move": (("company", _C),),
    "convert": (("company", _C),),
    "convert_done": (),
}
BATAVIA_CHANCE: Table = {
    "post": (("company", _C), ("good", batavia_rules.GOODS)),
    "card": (("company", _C),),
    "die": (("value", numbers(1, 6)),),
}

_PORTS = tuple(port.name for port in cargo_data.PORTS)
_PLACES = (*_PORTS, cargo_data.CASINO, cargo_data.BLACK_MARKET)
_T = cargo_data.TOKENS
CARGO_NOIR: Table = {
    "send": (("to", _PLACES),),
    "bid": (("port", _PORTS), ("coins", AMOUNTS)),
    "resolve": (("at", _PLACES),),
    "market_draw": (),
    "start_combination": (("kind", ("same", "different")),),
    "end_smuggling": (),
    "market_swap": (("give", _T), ("take", _T)),
    "add": (("good", _T),),
    "smuggle": (),
    "withdraw": (("port", _PORTS),),
    "buy": (("card", tuple(card.name for card in cargo_data.CARDS)),),
    "discard": (("good", _T),),
    "raise": (("port", _PORTS), ("add", AMOUNTS)),
}
CARGO_NOIR_CHANCE: Table = {"draw": (("good", _T),)}

_COL = grog_data.COLOURS
_OBJ = grog_data.OBJECTIVE_KINDS
_PARROTS = tuple(dict.fromkeys(grog_data.PARROT_DECK))
_SHIPS = tuple(name for name, _, _ in grog_data.SHIPS)
GROG_ISLAND: Table = {
    "choose_good": (("good", _COL),),
    "return_objective": (("card", _OBJ),),
    "parrot": (("card", _PARROTS), ("value", (ABSENT, *numbers(1, 6)))),
    "place": (("colour", _COL),),
    "bid": (("total", AMOUNTS),),
    "pass": (),
    "choose_ship": (("ship", _SHIPS),),
    "exchange": (("goods", sequences(_COL, 4)),),
    "end_trade": (),
    "decline": (),
    "pay_treasure": (("value", numbers(1, grog_data.TREASURE_MAX)),),
    "pay": (("coins", AMOUNTS),),
    "claim": (("building", grog_data.BUILDING_IDS),),
    "decline_claims": (),
    "keep_objective": (("card", _OBJ),),
    "lock": (("building", grog_data.BUILDING_IDS),),
    "build_pay": (("goods", sequences(_COL, 4)),),
}
GROG_ISLAND_CHANCE: Table = {
    "place_cloud": (("peninsula", _COL), ("cloud", grog_data.CLOUDS)),
    "place_ship": (("space", numbers(0, grog_data.SHIP_SPACES - 1)), ("ship", _SHIPS)),
    "draw": (
        ("deck", ("objective", "treasure", "parrot")),
        ("seat", numbers(0, 3)),
        ("card", (*_OBJ, *_PARROTS, *numbers(1, grog_data.TREASURE_MAX))),
    ),
    "roll": (("colour", _COL), ("value", numbers(1, 6))),
}

TABLES: dict[str, tuple[Table, Table]] = {
    "manila": (MANILA, MANILA_CHANCE),
    "batavia": (BATAVIA, BATAVIA_CHANCE),
    "cargo_noir": (CARGO_NOIR, CARGO_NOIR_CHANCE),
    "grog_island": (GROG_ISLAND, GROG_ISLAND_CHANCE),
}
"""Engine slug -> (its players' action table, its chance outcome table)."""


def _key(value: Any) -> str:
    """A domain value as a lookup key (lists are not hashable; ``1`` and ``true`` differ)."""
    if value is ABSENT:
        return "\0absent"
    return json.dumps(value, sort_keys=True)


class ActionCodec:
    """A fixed bijection between an engine's JSON actions and ``0..size-1``."""

    def __init__(self, slug: str, table: Table) -> None:
        self.slug = slug
        self.types: list[tuple[str, int, list[tuple[str, Domain, dict[str, int]]]]] = []
        offset = 0
        for kind, fields in table.items():
            indexed = [
                (name, domain, {_key(v): i for i, v in enumerate(domain)})
                for name, domain in fields
            ]
            self.types.append((kind, offset, indexed))
            size = 1
            for _, domain, _ in indexed:
                size *= len(domain)
            offset += size
        self.size = offset
        self._by_type = {kind: (offset, fields) for kind, offset, fields in self.types}

    def encode(self, action: Mapping[str, Any]) -> int:
        """The id of ``action``; ``ValueError`` for an action outside the table."""
        kind = action.get("type")
        if kind not in self._by_type:
            raise ValueError(f"{self.slug}: no action id for type {kind!r} ({_key(action)})")
        offset, fields = self._by_type[kind]
        if not set(action) <= {"type", *(name for name, _, _ in fields)}:
            raise ValueError(f"{self.slug}: fields of {_key(action)} are not the table's")
        number = 0
        for name, domain, index in fields:
            value = action.get(name, ABSENT)
            position = index.get(_key(value))
            if position is None:
                raise ValueError(f"{self.slug}: {name}={value!r} is outside the id table")
            number = number * len(domain) + position
        return offset + number

    def decode(self, number: int) -> Action:
        """The action of id ``number``; ``ValueError`` outside ``0..size-1``."""
        if not 0 <= number < self.size:
            raise ValueError(f"{self.slug}: action id {number} outside 0..{self.size - 1}")
        for kind, offset, fields in reversed(self.types):
            if number >= offset:
                rest = number - offset
                values = []
                for _, domain, _ in reversed(fields):
                    rest, position = divmod(rest, len(domain))
                    values.append(domain[position])
                action: Action = {"type": kind}
                for (name, _, _), value in zip(fields, reversed(values), strict=True):
                    if value is not ABSENT:
                        action[name] = value
                return action
        raise AssertionError("unreachable: offsets start at 0")


def _returns(state: State) -> list[float]:
    """1 for first place (shared or not), 0 for last, evenly between."""
    n = state.num_players
    return [(n - rank) / (n - 1) for rank in state.outcome()["ranks"]]


class Setup:
    """What the states of one loaded game share: the engine, table size, options, codecs.

    Kept outside the ``pyspiel.Game`` object: attributes set on a Python game
    do not survive its trip through OpenSpiel's C++ side.
    """

    def __init__(self, slug: str, params: Mapping[str, Any]) -> None:
        self.engine = registry.get(slug)
        self.players = int(params.get("players", self.engine.min_players))
        self.options = self.engine.check_setup(self.players, None)
        self.seed = int(params.get("seed", 0))
        self.resamples = 0
        table, chance_table = TABLES[slug]
        self.codec = ActionCodec(slug, table)
        self.chance_codec = ActionCodec(slug, chance_table)

    def __deepcopy__(self, memo: dict) -> Setup:
        """Shared by every state of the game, clones included (OpenSpiel deep-copies states)."""
        return self


class _Held:
    """Holds a state's engine state; OpenSpiel deep-copies a Python state's attributes,
    and the engine's own ``clone`` does that job far cheaper than ``copy.deepcopy``."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.state.clone())


_SETUPS: dict[tuple[str, int, int], Setup] = {}


def setup_of(game: Any) -> Setup:
    """The :class:`Setup` of an OpenSpiel game object of ours (made once per parameters)."""
    slug = game.get_type().short_name.removeprefix(PREFIX)
    params = game.get_parameters()
    key = (slug, int(params.get("players", 0)), int(params.get("seed", 0)))
    found = _SETUPS.get(key)
    if found is None:
        found = _SETUPS[key] = Setup(slug, params)
    return found


class HarbormasterState(pyspiel.State):
    """An OpenSpiel state wrapping one engine state (``self.engine_state``)."""

    def __init__(self, game: Any, engine_state: State | None = None) -> None:
        super().__init__(game)
        self.hm_game = setup_of(game)
        self._held = _Held(
            engine_state or self.hm_game.engine.new_game(self.hm_game.players, self.hm_game.options)
        )
        self._ids: dict[int, Action] = {}
        self._log = ""  # a digest of the public log's first _logged events
        self._logged = 0

    @property
    def engine_state(self) -> State:
        """The engine's state this OpenSpiel state wraps."""
        return self._held.state

    # ----------------------------------------------------------- the moves
    def current_player(self) -> int:
        movers = self.engine_state.to_move
        if not movers:
            return pyspiel.PlayerId.TERMINAL
        if len(movers) != 1:  # pragma: no cover - every engine is sequential
            raise ValueError(f"seats {movers} to move at once: not a sequential game")
        return pyspiel.PlayerId.CHANCE if movers[0] == CHANCE else movers[0]

    def _legal_actions(self, player: int) -> list[int]:
        codec = self.hm_game.codec
        self._ids = {codec.encode(a): a for a in self.engine_state.legal_actions(player)}
        return sorted(self._ids)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        codec = self.hm_game.chance_codec
        outcomes = self.engine_state.chance_outcomes()
        self._ids = {codec.encode(a): a for a, _ in outcomes}
        return sorted((codec.encode(a), p) for a, p in outcomes)

    def _apply_action(self, action: int) -> None:
        mover = self.engine_state.to_move[0]
        found = self._ids.get(action)
        if found is None:  # not listed yet from this position: decode it
            codec = self.hm_game.chance_codec if mover == CHANCE else self.hm_game.codec
            found = codec.decode(action)
        self.engine_state.apply_checked(mover, found)
        self._ids = {}

    def _action_to_string(self, player: int, action: int) -> str:
        codec = self.hm_game.chance_codec if player == CHANCE else self.hm_game.codec
        return _key(codec.decode(action))

    def is_terminal(self) -> bool:
        return self.engine_state.is_over

    def returns(self) -> list[float]:
        if not self.engine_state.is_over:
            return [0.0] * self.engine_state.num_players
        return _returns(self.engine_state)

    # ------------------------------------------------------ what a seat sees
    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return f"{_key(self.engine_state.view(seat))} log:{self._log_digest()}"

    def _log_digest(self) -> str:
        """A digest of the public event log, fed only the events added since the last call.

        The whole log as a string would grow with every move and make each
        information state cost the length of the game so far; a chain of
        digests does not (a string, so copies of the state share it safely).
        """
        events = self.engine_state.events
        if self._logged < len(events):
            digest = hashlib.sha256(self._log.encode())
            for event in events[self._logged :]:
                digest.update(_key(event).encode())
                digest.update(b"\n")
            self._log, self._logged = digest.hexdigest(), len(events)
        return self._log

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return _key(self.engine_state.view(seat))

    def resample_from_infostate(self, player: int, sampler: Any = None) -> HarbormasterState:
        """A state ``player`` cannot tell from this one, secrets drawn by ``engines.determinize``.

        ``sampler`` (OpenSpiel's probability sampler) is not used: the draw is
        seeded from OpenSpiel's call count, so a search is repeatable.
        """
        self.hm_game.resamples += 1
        sample = determinize(
            self.hm_game.engine.slug,
            self.engine_state.view(player),
            seed=f"{self.hm_game.seed}/{self.hm_game.resamples}",
            players=self.engine_state.num_players,
            options=self.engine_state.options,
            check=False,
        )
        sample.events = list(self.engine_state.events)  # public: the same log
        other = HarbormasterState(self.get_game(), sample)
        other._log, other._logged = self._log, self._logged
        return other

    def __str__(self) -> str:
        return _key(self.engine_state.public_view())


class StringObserver:
    """OpenSpiel's observer interface with strings only (no tensors): the view, or view + log."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: HarbormasterState, player: int) -> None:
        """No tensor to fill: these games provide strings only."""

    def string_from(self, state: HarbormasterState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


class HarbormasterGame(pyspiel.Game):
    """One engine as an OpenSpiel game; parameter ``players`` (default: the smallest table)."""

    engine_slug = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        engine = registry.get(self.engine_slug)
        params = {"players": engine.min_players, "seed": 0, **(params or {})}
        setup = Setup(self.engine_slug, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.codec.size,
            max_chance_outcomes=setup.chance_codec.size,
            num_players=setup.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(engine), info, params)

    def new_initial_state(self) -> HarbormasterState:
        return HarbormasterState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> StringObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return StringObserver(bool(iig_obs_type is None or iig_obs_type.perfect_recall))


def game_type(engine: Any) -> Any:
    """The OpenSpiel game type of an engine: sequential, explicit chance, imperfect information."""
    return pyspiel.GameType(
        short_name=PREFIX + engine.slug,
        long_name=f"Harbormaster {engine.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.max_players,
        min_num_players=engine.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": engine.min_players, "seed": 0},
    )


_REGISTERED: dict[str, type[HarbormasterGame]] = {}


def register() -> list[str]:
    """Register every engine with OpenSpiel (once per process); their short names."""
    for slug in TABLES:
        if slug in _REGISTERED:
            continue
        engine = registry.get(slug)
        cls = type(f"HarbormasterGame_{slug}", (HarbormasterGame,), {"engine_slug": slug})
        pyspiel.register_game(game_type(engine), cls)
        _REGISTERED[slug] = cls
    return [PREFIX + slug for slug in TABLES]


def engine_action(state: HarbormasterState, action: int) -> Action:
    """The engine's JSON action of an OpenSpiel id at ``state`` (what the referee would apply)."""
    player = state.current_player()
    codec = state.hm_game.chance_codec if player == CHANCE else state.hm_game.codec
    return codec.decode(action)
