"""Which of a competitor's games to list: engine, tournament, rated or not, opponent, and where.

One shape for the page (lenient: a value it cannot read is dropped and said
so) and the export API (strict: a 400 naming the parameter, through its
query serializer), so both list exactly the same games for the same filters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.http import QueryDict

import engines

BOOLEANS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


@dataclass(frozen=True)
class GameFilters:
    """The list's filters; None means "any". ``before`` is the cursor: games older than that one."""

    engine: str | None = None
    tournament: int | None = None
    rated: bool | None = None
    opponent: int | None = None
    before: int | None = None

    @property
    def any(self) -> bool:
        """Whether a filter (not the cursor) narrows the list."""
        return any(v is not None for v in (self.engine, self.tournament, self.rated, self.opponent))

    def query(self, **changes: Any) -> str:
        """These filters (with ``changes``) as a query string for a link, empty values left out."""
        chosen = replace(self, **changes)
        params = QueryDict(mutable=True)
        for name in ("engine", "tournament", "rated", "opponent", "before"):
            value = getattr(chosen, name)
            if value is None:
                continue
            params[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
        return params.urlencode()


@dataclass(frozen=True)
class ParsedFilters:
    filters: GameFilters
    problems: list[str] = field(default_factory=list)


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and 0 < int(text) < 2**63 else None


def from_page(params: QueryDict) -> ParsedFilters:
    """The filters of a page's query string; what cannot be read is left out and named."""
    values: dict[str, Any] = {}
    problems = []
    slugs = {engine.slug for engine in engines.all_engines()}
    engine = params.get("engine", "")
    if engine:
        if engine in slugs:
            values["engine"] = engine
        else:
            problems.append(f"no game called {engine!r}")
    for name in ("tournament", "opponent", "before"):
        text = params.get(name, "")
        if text:
            number = _whole(text)
            if number is None:
                problems.append(f"{name} must be a whole number")
            else:
                values[name] = number
    rated = params.get("rated", "")
    if rated:
        if rated.lower() in BOOLEANS:
            values["rated"] = BOOLEANS[rated.lower()]
        else:
            problems.append("rated must be true or false")
    return ParsedFilters(GameFilters(**values), problems)
