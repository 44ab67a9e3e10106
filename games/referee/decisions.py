"""What a seat chose, and how it was chosen: the input of ``referee.submit``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines import State
from games.models import Move

FORFEITED = "forfeited"
"""Fault kind of the defaults played for a seat that already forfeited (not counted again).

Also the kind of the default played when a substituted seat's house bot failed
(``house_bot``): the seat forfeited already, and the failure is not the person's."""


@dataclass(frozen=True)
class Decision:
    """An action with its provenance (who chose it, how long it took, what went wrong)."""

    action: dict[str, Any]
    source: str = Move.Source.PERSON
    latency_ms: int | None = None
    fault_kind: str = ""
    fault_detail: str = ""
    request_excerpt: str = ""
    reply_excerpt: str = ""

    @property
    def is_fault(self) -> bool:
        return bool(self.fault_kind)


def default_decision(state: State, seat: int, kind: str, detail: str, **extra: Any) -> Decision:
    """The engine's default action (``State.default_action``: passing wherever the rules
    allow), played for a seat that did not answer properly: a timeout, a fault, a forfeit.

    The same for people, push bots and pull bots; ``kind`` is stored on the move
    (``Move.fault_kind``), so pages and the event stream can mark it."""
    return Decision(
        action=state.default_action(seat),
        source=Move.Source.DEFAULT,
        fault_kind=kind,
        fault_detail=detail,
        **extra,
    )
