"""Bot protocol v1: the messages, built and checked in one place.

The referee builds requests here (``act_request``, ``start_request``,
``finish_request``, ``ping_request``) and turns a bot's parsed JSON reply
into a decision or a :class:`ProtocolFault` here (``parse_act_reply``,
``parse_ping_reply``). The HTTP client (:mod:`botapi.client`) and the pull API
both use these functions, so a bot sees the same messages and the same fault
rules whichever way it plays.

Every message has a JSON Schema (draft 2020-12) in ``botapi/schemas/``; the
schemas are the reference for bot authors and :func:`validate` checks a
message against them.
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

PROTOCOL_VERSION = 1
KINDS = ("act", "start", "finish", "ping")
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
SCHEMA_FILES = {
    "act_request": "act-request.schema.json",
    "act_reply": "act-reply.schema.json",
    "start_request": "start-request.schema.json",
    "finish_request": "finish-request.schema.json",
    "ping_request": "ping-request.schema.json",
    "ping_reply": "ping-reply.schema.json",
}

Action = dict[str, Any]


class ProtocolFault(Exception):
    """A reply that breaks the protocol; ``kind`` is the fault name recorded on the move."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


# ------------------------------------------------------------------ schemas
@functools.cache
def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of a message, e.g. ``schema("act_request")``."""
    return json.loads((SCHEMA_DIR / SCHEMA_FILES[name]).read_text(encoding="utf-8"))


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name), registry=_registry())


def schema_problem(name: str, message: Any) -> str | None:
    """The most relevant schema violation of ``message`` as one sentence, or None."""
    error = best_match(_validator(name).iter_errors(message))
    if error is None:
        return None
    where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    if error.validator == "oneOf" and name == "act_reply":
        text = 'give exactly one of "action" or "action_index"'
    else:
        text = error.message if len(error.message) <= 300 else error.message[:300] + "..."
    return f"{where.lstrip('.') or '(top level)'}: {text}"


def validate(name: str, message: Any) -> None:
    """Raise ``ValueError`` naming the problem unless ``message`` fits schema ``name``."""
    problem = schema_problem(name, message)
    if problem is not None:
        raise ValueError(f"{name} does not match its schema: {problem}")


# ----------------------------------------------------------------- requests
def new_request_id() -> str:
    """A fresh opaque request id."""
    return uuid.uuid4().hex


def game_info(
    *,
    game_id: str | int,
    engine: Any,
    num_players: int,
    options: Mapping[str, Any],
    seat: int,
    engine_version: str | None = None,
) -> dict[str, Any]:
    """The ``game`` object of a request.

    ``engine`` is an :class:`engines.Engine` (its slug and version are used)
    or a slug string together with ``engine_version``.
    """
    if isinstance(engine, str):
        slug, version = engine, engine_version
    else:
        slug, version = engine.slug, engine_version or engine.version
    if version is None:
        raise ValueError("engine_version is required when engine is given as a slug")
    return {
        "id": game_id,
        "engine": slug,
        "engine_version": str(version),
        "num_players": num_players,
        "options": dict(options),
        "seat": seat,
    }


def _envelope(kind: str, request_id: str | None) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "kind": kind,
        "request_id": request_id or new_request_id(),
    }


def act_request(
    *,
    game: Mapping[str, Any],
    ply: int,
    deadline_ms: int,
    view: Mapping[str, Any],
    legal_actions: Sequence[Action],
    events: Sequence[Mapping[str, Any]],
    time_bank_ms: int | None = None,
    default_action: Action | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """An ``act`` request: the bot must pick one of ``legal_actions``.

    ``events`` are the public events since this seat's previous act request
    in the game (the referee decides; all of them on the first request).
    ``default_action`` is what the referee plays if the seat does not answer
    (``State.default_action(seat)``); its index goes out as
    ``default_action_index`` so that an SDK whose handler is too slow answers
    that safe action, not the first legal one (issue #32: in Manila's auction
    the first is the lowest raise). It is the seat's own default, computed
    from what the seat may see, so it hides nothing from that seat.
    """
    if not legal_actions:
        raise ValueError("an act request needs at least one legal action")
    request = _envelope("act", request_id)
    request.update(
        game=dict(game),
        ply=ply,
        deadline_ms=int(deadline_ms),
        view=dict(view),
        legal_actions=list(legal_actions),
        events=list(events),
    )
    if time_bank_ms is not None:
        request["time_bank_ms"] = int(time_bank_ms)
    if default_action is not None:
        request["default_action_index"] = action_index(request["legal_actions"], default_action)
    return request


def action_index(legal_actions: Sequence[Action], action: Action) -> int:
    """The index of ``action`` among ``legal_actions``; ``ValueError`` if it is not there."""
    for index, candidate in enumerate(legal_actions):
        if json_equal(candidate, action):
            return index
    raise ValueError(f"action {action!r} is not among the {len(legal_actions)} legal actions")


def act_request_for_state(
    state: Any,
    *,
    game_id: str | int,
    seat: int,
    ply: int,
    deadline_ms: int,
    events: Sequence[Mapping[str, Any]] | None = None,
    time_bank_ms: int | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """An ``act`` request for ``seat`` in an engine state (:class:`engines.State`).

    ``events`` defaults to the whole public log of the state.
    """
    game = game_info(
        game_id=game_id,
        engine=state.engine,
        num_players=state.num_players,
        options=state.options,
        seat=seat,
    )
    return act_request(
        game=game,
        ply=ply,
        deadline_ms=deadline_ms,
        view=state.view(seat),
        legal_actions=state.legal_actions(seat),
        events=state.events if events is None else events,
        time_bank_ms=time_bank_ms,
        default_action=state.default_action(seat),
        request_id=request_id,
    )


def start_request(
    *,
    game: Mapping[str, Any],
    players: Sequence[str] | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """A ``start`` request: a game the bot plays in has begun."""
    request = _envelope("start", request_id)
    request["game"] = dict(game)
    if players is not None:
        request["players"] = list(players)
    return request


def finish_request(
    *,
    game: Mapping[str, Any],
    outcome: Mapping[str, Any],
    forfeited: Sequence[int] | None = None,
    view: Mapping[str, Any] | None = None,
    events: Sequence[Mapping[str, Any]] | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    """A ``finish`` request: the game is over; ``outcome`` has scores and ranks."""
    request = _envelope("finish", request_id)
    request["game"] = dict(game)
    request["outcome"] = dict(outcome)
    if forfeited is not None:
        request["forfeited"] = list(forfeited)
    if view is not None:
        request["view"] = dict(view)
    if events is not None:
        request["events"] = list(events)
    return request


def ping_request(*, request_id: str | None = None) -> dict[str, Any]:
    """A ``ping`` request: the bot answers its name and version."""
    return _envelope("ping", request_id)


# ------------------------------------------------------------------ replies
def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values where ``true`` is not ``1`` (Python's ``==`` says it is).

    Integers and floats compare by value (``2 == 2.0``) since JSON has one
    number type; booleans, null, strings, lists and objects compare strictly.
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _check_request_id(reply: Mapping[str, Any], request: Mapping[str, Any]) -> None:
    if reply["request_id"] != request["request_id"]:
        raise ProtocolFault(
            "wrong_request_id",
            f"reply is for request_id {reply['request_id'][:80]!r}, "
            f"expected {request['request_id']!r}",
        )


def parse_act_reply(
    reply: Any,
    request: Mapping[str, Any],
    explain: Callable[[Action], str] | None = None,
) -> tuple[Action, int]:
    """The chosen legal action and its index, from a bot's parsed JSON reply.

    Checks, in order: the schema (``bad_schema``), the echoed request id
    (``wrong_request_id``), and that the action is one of the request's legal
    actions or the index is in range (``illegal_action``). The action
    returned is the referee's own copy from ``legal_actions``, never the
    bot's object. ``explain(action)`` may supply the engine's reason
    (``state.explain_illegal``) for an illegal action.
    """
    problem = schema_problem("act_reply", reply)
    if problem is not None:
        raise ProtocolFault("bad_schema", problem)
    _check_request_id(reply, request)
    legal = request["legal_actions"]
    if "action_index" in reply:
        index = reply["action_index"]
        if type(index) is not int:  # JSON Schema counts 0.0 as an integer; the protocol does not
            raise ProtocolFault("bad_schema", f"action_index must be a JSON integer, not {index!r}")
        if index >= len(legal):
            raise ProtocolFault(
                "illegal_action",
                f"action_index {index} is out of range: there are {len(legal)} legal actions "
                f"(0..{len(legal) - 1})",
            )
        return legal[index], index
    action = reply["action"]
    for index, candidate in enumerate(legal):
        if json_equal(candidate, action):
            return candidate, index
    reason = explained(explain, action)
    shown = json.dumps(action, ensure_ascii=False)[:300]
    raise ProtocolFault(
        "illegal_action",
        reason or f"action {shown} is not among the {len(legal)} legal actions",
    )


def explained(explain: Callable[[Action], str] | None, action: Action) -> str | None:
    """The engine's reason why ``action`` is illegal, or None if it has none.

    The action is a stranger's JSON: an engine's explanation may choke on it
    (a list where it expects a name raises ``TypeError``). The reason is a
    courtesy; the action is illegal either way, so its failure is no error.
    """
    if explain is None:
        return None
    try:
        return explain(action)
    except Exception:
        return None


def parse_ping_reply(reply: Any, request: Mapping[str, Any]) -> dict[str, Any]:
    """``{"name", "version"}`` from a bot's parsed ping reply, or a :class:`ProtocolFault`."""
    problem = schema_problem("ping_reply", reply)
    if problem is not None:
        raise ProtocolFault("bad_schema", problem)
    _check_request_id(reply, request)
    return {"name": reply["name"], "version": reply["version"]}
