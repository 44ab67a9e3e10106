"""The protocol every rules engine implements.

One protocol for all four games, in the style of OpenSpiel's Python games
(chance is an explicit player, ``CHANCE``) with boardgame.io-style per-seat
views. The referee, the bot API, the tests and the benchmarks only ever talk
to an engine through this module, so a fifth game needs no change elsewhere.

Secrets live in exactly two places of every state, so that one generic
redaction and one generic leak test serve all games:

* ``state.private[seat]`` -- a JSON-ready dict of what only ``seat`` may see
  (a hand, hidden shares, objective cards, treasure values ...);
* ``state.hidden`` -- a JSON-ready dict of what nobody may see (what is left
  in a deck or a bag, face-down tiles that are already fixed ...).

``view(seat)`` is ``public_view()`` plus a copy of ``private[seat]``;
``public_view()`` must never read a secret beyond its *shape* (how many cards
a hand holds may be public, which cards it holds is not).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .text import generic_event_text

CHANCE = -1
"""The seat of chance: dice, deals, bag draws and tile reveals are its moves."""

Action = dict[str, Any]


class EngineError(ValueError):
    """Base class of every error an engine raises on bad input."""


class IllegalAction(EngineError):
    """An action that the rules do not allow now; the state is left unchanged.

    The message is written for a bot author, e.g.
    ``"seat 2 may not bid 40: only 31 pesos available"``.
    """


class InvalidGame(EngineError):
    """A game that cannot be set up: unknown engine, bad player count or options."""


def same_json(a: Any, b: Any) -> bool:
    """Equality of JSON values that also tells ``true`` from ``1`` and ``1.0`` from ``1``.

    Python's ``==`` says ``True == 1``; a bot that sends ``{"amount": true}``
    must be refused, not silently read as 1.
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def is_listed(action: Any, legal: list[Action]) -> bool:
    """Whether ``action`` is one of ``legal`` by :func:`same_json` (strict JSON equality).

    The cheap form of ``any(same_json(action, c) for c in legal if c == action)``:
    ``list.index`` finds, in C, the first candidate that *is* the action (a
    bot or the bench picked it from the list: done) or equals it by Python's
    loose ``==`` (which ``true == 1`` and ``1.0 == 1`` pass); only such a
    candidate is compared strictly, and the scan goes on past it in the rare
    case it differs by type. Strict equality implies ``==``, so this refuses
    exactly what the full comparison refuses. A per-position set of
    canonical keys would answer in O(1) but costs a key per legal action to
    build, more than the one check a position nearly always gets.
    """
    start = 0
    end = len(legal)
    while start < end:
        try:
            i = legal.index(action, start)
        except ValueError:
            return False
        candidate = legal[i]
        if candidate is action or same_json(action, candidate):
            return True
        start = i + 1
    return False


class _Forgetful(dict):
    """A cache table that stores nothing: in place while ``_apply`` runs (see ``State.__new__``)."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


_FORGETFUL = _Forgetful()
_CHANCE_KEY = "chance"
_CHANCE_ACTIONS_KEY = "chance_actions"


def ranks_from_scores(scores: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Competition ranking (1 = best, ties share a rank, the next rank skips).

    ``[10, 7, 7, 3] -> [1, 2, 2, 4]``.
    """
    sign = -1 if higher_is_better else 1
    return [1 + sum(1 for other in scores if sign * other < sign * s) for s in scores]


class State(ABC):
    """One position of a game; mutated in place by :meth:`apply`.

    Subclasses use ``__slots__`` and implement the abstract methods. They keep
    every secret in ``private``/``hidden`` (see the module docstring).
    """

    __slots__ = ("_memo", "events", "hidden", "num_players", "options", "private")

    engine: ClassVar[Engine]

    num_players: int
    options: dict[str, Any]
    events: list[dict[str, Any]]
    private: list[dict[str, Any]]
    hidden: dict[str, Any]

    # ----------------------------------------------------------------- turn
    @property
    @abstractmethod
    def to_move(self) -> list[int]:
        """Seats to move now: ``[seat]``, ``[CHANCE]``, or ``[]`` when over."""

    @property
    def is_over(self) -> bool:
        return not self.to_move

    def legal_actions(self, seat: int) -> list[Action]:
        """JSON-ready actions ``seat`` may take now (empty if not its turn).

        Computed once per position (see :meth:`__new__`); the list is a fresh
        shallow copy, so sorting or popping it cannot corrupt the cache, but
        the action dicts in it are shared and must be treated as read-only.
        """
        found = self._memo.get(seat)
        if found is None:
            found = self._memo[seat] = self._legal_actions(seat)
        return found[:]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``[(action, probability)]`` when CHANCE is to move, else ``[]``.

        Computed once per position, like :meth:`legal_actions` (a fresh list
        of shared, read-only actions).
        """
        found = self._memo.get(_CHANCE_KEY)
        if found is None:
            found = self._memo[_CHANCE_KEY] = self._chance_outcomes()
        return found[:]

    # ------------------------------------------------------------ defaults
    default_preference: ClassVar[tuple[Mapping[str, Any], ...]] = ({"type": "pass"},)
    """Actions a silent seat plays, best first, each given by the fields it must have.

    Each engine declares its own (passing wherever passing is legal, then the
    other ways of committing nothing); the first one listed among the legal
    actions is the default. See :meth:`default_action`."""

    default_cheapest: ClassVar[Mapping[str, str]] = {}
    """Action type -> the numeric field that costs the seat (a bid, a payment).

    When no preferred action is legal, the legal action of the first listed
    type with the smallest such field is played: never a bid or a payment
    higher than the rules force."""

    def default_action(self, seat: int) -> Action:
        """The action played for ``seat`` when it did not answer (timeout, fault, forfeit).

        A person who stepped away must not be ruined by it (issue #32: the
        first legal action of Manila's auction was its lowest raise): the
        engine's ``default_preference`` first, then the cheapest action of a
        ``default_cheapest`` type, else the first legal action (a choice the
        rules force, where nothing is spent). Always one of
        :meth:`legal_actions` and deterministic: the same position gives the
        same default. Raises :class:`IllegalAction` if ``seat`` has nothing to play.
        """
        legal = self._listed(seat) if seat != CHANCE and seat in self.to_move else []
        if not legal:
            raise IllegalAction(f"seat {seat} has no action to default to now")
        for wanted in self.default_preference:
            for action in legal:
                if all(action.get(k) == v for k, v in wanted.items()):
                    return action
        for kind, field in self.default_cheapest.items():
            priced = [a for a in legal if a["type"] == kind]
            if priced:
                return min(priced, key=lambda a: a[field])
        return legal[0]

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Compute what :meth:`legal_actions` returns (called once per position and seat)."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        """Compute what :meth:`chance_outcomes` returns (called once per position)."""

    # ---------------------------------------------------------------- cache
    def __new__(cls, *args: Any, **kwargs: Any) -> State:
        """Every state starts with an empty cache, however it is built.

        The cache (``_memo``: seat -> legal actions, plus the chance outcomes)
        exists because the caller of ``apply`` has nearly always just listed
        the legal actions (to choose one, show them, ask a bot) and
        ``check_action`` needs them again; computing them once per position
        halves the cost of a move (issue #17). It belongs to one object: a
        ``clone`` or ``from_json`` (built with ``cls.__new__(cls)``) starts
        with its own empty table, ``apply`` replaces the table after every
        move, and while ``_apply`` runs the table is one that forgets what it
        is told, so an engine reading its own legal actions half-way through a
        move never caches a half-made position.
        """
        state = super().__new__(cls)
        state._memo = {}
        return state

    def forget_cached_actions(self) -> None:
        """Drop the cached legal actions and chance outcomes.

        ``apply`` does it; call it after editing a state's fields directly
        (tests, tools), which no cache can notice.
        """
        self._memo = {}

    # ---------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> None:
        """Validate, then play ``action`` for ``seat``.

        Raises :class:`IllegalAction` and leaves the state exactly unchanged
        when the action is malformed, out of turn or against the rules.
        """
        # The usual move was picked from the list cached for this very position (chance:
        # from its cached outcomes): the very object found there, by identity, is an
        # engine-made action -- a dict with a "type" string -- and, the list being
        # non-empty, ``seat`` is to move (the protocol: ``_legal_actions`` lists nothing for
        # a seat not to move, ``_chance_outcomes`` nothing unless chance moves; tests/
        # engines/test_hot_path_contract.py holds every engine to it). Anything else takes
        # the full ``check_action``. ``list.index`` scans in C (identity first, then ``==``);
        # a few outcomes are cheaper scanned by identity here than copied into a list.
        listed = False
        if type(seat) is int and type(action) is dict:
            memo = self._memo
            if seat != CHANCE:
                legal = memo.get(seat)
                if legal:
                    try:  # noqa: SIM105 (contextlib.suppress costs a context manager a move)
                        listed = legal[legal.index(action)] is action
                    except ValueError:
                        pass
            else:  # among the outcomes the caller drew from, if cached (by identity only)
                outcomes = memo.get(_CHANCE_KEY)
                if outcomes:
                    for outcome, _ in outcomes:
                        if outcome is action:
                            listed = True
                            break
        if not listed:
            self.check_action(seat, action)
        self._memo = _FORGETFUL  # no caching of a half-made position (see __new__)
        try:
            self._apply(seat, action)
        finally:
            self._memo = {}

    def apply_checked(self, seat: int, action: Action) -> None:
        """Play ``action``, which :meth:`check_action` accepted on this very position.

        For a caller that checked the action on a state and plays it on that
        state's fresh ``clone()`` (the referee keeps the state it checked
        unchanged): the clone has no cache, and checking again would compute
        the legal actions a second time. Anyone else calls :meth:`apply`.
        """
        self._memo = _FORGETFUL  # the same as in ``apply``
        try:
            self._apply(seat, action)
        finally:
            self._memo = {}

    def check_action(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may play ``action`` now.

        On the hot path of every move: the common case (an int seat, a dict
        action, the list cached, the very action object picked from it) costs
        a few type tests and one ``list.index`` in C.
        """
        if type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise IllegalAction(f"seat must be an integer, not {seat!r}")
        if type(action) is not dict and not isinstance(action, dict):
            raise IllegalAction(f"an action must be a JSON object, not {type(action).__name__}")
        kind = action.get("type")
        if type(kind) is not str and not isinstance(kind, str):
            raise IllegalAction('an action needs a "type" string')
        movers = self.to_move  # [] exactly when the game is over (the protocol of is_over)
        if seat not in movers:
            if not movers:
                raise IllegalAction("the game is over")
            who = "chance" if movers == [CHANCE] else ", ".join(f"seat {s}" for s in movers)
            name = "chance" if seat == CHANCE else f"seat {seat}"
            raise IllegalAction(f"{name} is not to move: waiting for {who}")
        legal = self._memo.get(seat if seat != CHANCE else _CHANCE_ACTIONS_KEY)
        if legal is None:
            legal = self._listed(seat)
        try:
            found = legal[legal.index(action)]
        except ValueError:
            found = None
        if found is not action and (found is None or not is_listed(action, legal)):
            raise IllegalAction(self._explanation(seat, action, legal))

    def _explanation(self, seat: int, action: Action, legal: list[Action]) -> str:
        """The engine's reason for refusing ``action``, or the generic one if that fails.

        An engine's explainer reads fields of a malformed action (a list where
        a name belongs: ``{"good": ["jade"]}``) and may trip over it; a refusal
        must stay a refusal, never become a crash of the referee's step.
        """
        try:
            return self.explain_illegal(seat, action, list(legal))
        except (TypeError, KeyError, ValueError, IndexError, AttributeError):
            return State.explain_illegal(self, seat, action, legal)

    def _listed(self, seat: int) -> list[Action]:
        """The cached actions ``seat`` may play (chance: its outcomes' actions); never mutate."""
        memo = self._memo
        if seat == CHANCE:
            found = memo.get(_CHANCE_ACTIONS_KEY)
            if found is None:
                outcomes = memo.get(_CHANCE_KEY)
                if outcomes is None:
                    outcomes = memo[_CHANCE_KEY] = self._chance_outcomes()
                found = memo[_CHANCE_ACTIONS_KEY] = [a for a, _ in outcomes]
            return found
        found = memo.get(seat)
        if found is None:
            found = memo[seat] = self._legal_actions(seat)
        return found

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        """Why ``action`` is not legal; engines override for specific reasons."""
        kinds = sorted({a["type"] for a in legal})
        if action["type"] not in kinds:
            return (
                f"seat {seat} may not play {action['type']!r} now; "
                f"allowed action types: {', '.join(kinds)}"
            )
        same = [a for a in legal if a["type"] == action["type"]]
        sample = ", ".join(str(a) for a in same[:5]) + (" ..." if len(same) > 5 else "")
        return f"seat {seat} may not play {action}: legal {action['type']!r} actions are {sample}"

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Play an action already known to be legal."""

    # ---------------------------------------------------------------- views
    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """Everything every seat and spectator may see; JSON-ready."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: public information plus its own secrets.

        ``None`` is a spectator: public information only.
        """
        view = self.public_view()
        if seat is not None:
            if not 0 <= seat < self.num_players:
                raise IllegalAction(f"no seat {seat} in a {self.num_players}-player game")
            view["you"] = seat
            view["private"] = copy.deepcopy(self.private[seat])
        return view

    # -------------------------------------------------------------- outcome
    @abstractmethod
    def outcome(self) -> dict[str, list]:
        """``{"scores": [...], "ranks": [...]}`` once over (1 = best, ties share)."""

    # ---------------------------------------------------------- persistence
    @abstractmethod
    def clone(self) -> State:
        """An independent copy, cheaply (no deepcopy in the hot path)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this exact state (secrets included)."""


class Engine(ABC):
    """A game's rules: makes states and describes actions.

    ``options`` maps each supported option name to its default value; the
    type of the default is the type an option value must have.
    """

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    version: ClassVar[str]
    options: ClassVar[Mapping[str, Any]] = {}
    max_legal_actions: ClassVar[int] = 150
    """No legal-action list is longer: bots may simply pick by index."""

    def check_setup(self, num_players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate a player count and options; return the options with defaults filled."""
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise InvalidGame(f"num_players must be an integer, not {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidGame(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"not {num_players}"
            )
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise InvalidGame(
                f"unknown option(s) {', '.join(unknown)} for {self.slug}; known: {known}"
            )
        merged = dict(self.options)
        for key, value in given.items():
            expected = type(self.options[key])
            if type(value) is not expected:
                raise InvalidGame(
                    f"option {key} must be {expected.__name__}, not {type(value).__name__}"
                )
            merged[key] = value
        return merged

    def new_game(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        """The initial state (often with CHANCE to move first, to deal)."""
        return self._new_game(num_players, self.check_setup(num_players, options))

    @abstractmethod
    def _new_game(self, num_players: int, options: dict[str, Any]) -> State:
        """Build the initial state from validated arguments."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state written by ``State.to_json``."""

    @abstractmethod
    def describe(self, action: Action) -> str:
        """A short sentence for people, e.g. ``"Bid 7 pesos"``."""

    def describe_event(self, event: Mapping[str, Any]) -> str:
        """A public event as a sentence for people (game pages show it).

        The default lists the event's fields (``bid: seat 0, amount 9``);
        an engine overrides it to write real sentences.
        """
        return generic_event_text(event)

    def __repr__(self) -> str:
        return f"<Engine {self.slug} v{self.version}>"
