"""What a seat chose, and how it was chosen: the input of ``referee.submit``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


def default_decision(legal: list[dict[str, Any]], kind: str, detail: str, **extra: Any) -> Decision:
    """The first legal action, played for a seat that did not answer properly."""
    return Decision(
        action=legal[0], source=Move.Source.DEFAULT, fault_kind=kind, fault_detail=detail, **extra
    )
