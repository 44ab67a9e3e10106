"""What the leaderboard pages render: a board's rows with its tabs, filter, pager and notes.

One component for the engine ladders and the league pages
(``templates/tournaments/_leaderboard.html``); the views only pick the scope.
The rows are :mod:`web.leaderboards.ranking`' (two queries a page); every link
is a query string from :mod:`web.leaderboards.params`, so switching system
keeps the kind, switching kind keeps the system, and the pager keeps both (a
switch goes back to page 1: another system's page 3 holds other entries).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.core.paginator import Page
from django.urls import reverse

from ratings.models import RatingScope
from web.leaderboards import params as ladder_params
from web.leaderboards import ranking as lb
from web.leaderboards.ranking import Ladder, LeaderboardRow

KIND_LABELS = {"all": "Everyone", "bot": "Bots", "person": "People"}


@dataclass(frozen=True)
class Link:
    label: str
    url: str
    current: bool = False


@dataclass(frozen=True)
class Board:
    """One board of a page, ready for ``_leaderboard.html``."""

    ladder: Ladder
    page: Page
    rated: bool
    systems: list[Link]
    kinds: list[Link]
    notes: tuple[str, ...]
    pager: dict[str, str] = field(default_factory=dict)
    provisional_games: int = lb.DEFAULT_PROVISIONAL_GAMES

    @property
    def rows(self) -> list[LeaderboardRow]:
        return list(self.page.object_list)

    @property
    def query(self) -> str:
        """The board's system and kind as a query string (for the export links)."""
        return ladder_params.query_string(self.ladder)

    @property
    def kind_label(self) -> str:
        return KIND_LABELS[self.ladder.kind]

    @property
    def any_provisional(self) -> bool:
        return any(row.provisional for row in self.page.object_list)


def _names(systems: Iterable[str]) -> str:
    """ "Elo", "Elo and TrueSkill", "TrueSkill, OpenSkill and Elo"."""
    names = [lb.SYSTEM_NAMES[name] for name in systems]
    if len(names) <= 1:
        return "".join(names) or "no system"
    return ", ".join(names[:-1]) + " and " + names[-1]


def not_rated_note(scope: RatingScope | None, system: str) -> str:
    """The sentence a page shows for a system its scope does not rate."""
    return (
        f"This ladder is not rated in {lb.SYSTEM_NAMES[system]}; "
        f"it is rated in {_names(lb.rated_systems(scope))}."
    )


def system_links(
    scope: RatingScope | None, ladder: Ladder, base: str = "", *, with_kind: bool = True
) -> list[Link]:
    """A tab per system the scope rates, each keeping the kind."""
    return [
        Link(
            lb.SYSTEM_NAMES[name],
            base + ladder_params.query_string(Ladder(name, ladder.kind), with_kind=with_kind),
            name == ladder.system,
        )
        for name in lb.rated_systems(scope)
    ]


def _kind_links(ladder: Ladder) -> list[Link]:
    return [
        Link(
            KIND_LABELS[kind],
            ladder_params.query_string(Ladder(ladder.system, kind)),
            kind == ladder.kind,
        )
        for kind in lb.KINDS
    ]


def _pager(page: Page, ladder: Ladder) -> dict[str, str]:
    links = {}
    if page.has_previous():
        links["first"] = ladder_params.query_string(ladder, 1)
        links["prev"] = ladder_params.query_string(ladder, page.previous_page_number())
    if page.has_next():
        links["next"] = ladder_params.query_string(ladder, page.next_page_number())
        links["last"] = ladder_params.query_string(ladder, page.paginator.num_pages)
    return links


def board(
    scope: RatingScope | None, query: Mapping[str, str], *, offer_kinds: bool = True
) -> Board:
    """The page's board from its query (``system``/``by``, ``kind``, ``page``)."""
    asked = ladder_params.from_query(query)
    ladder = asked.ladder
    rated = lb.rates(scope, ladder.system)
    notes = asked.ignored + (() if rated else (not_rated_note(scope, ladder.system),))
    page = lb.page(scope, ladder, query.get("page"))
    return Board(
        ladder=ladder,
        page=page,
        rated=rated,
        systems=system_links(scope, ladder),
        kinds=_kind_links(ladder) if offer_kinds else [],
        notes=notes,
        pager=_pager(page, ladder),
        provisional_games=lb.provisional_games(),
    )


@dataclass(frozen=True)
class TopBoard:
    """An engine's top rows on the overview, and the link to its full board."""

    engine: object
    rows: list[LeaderboardRow]
    url: str
    rated: bool
    note: str


def overview(
    engines: Iterable, scopes: Mapping[str, RatingScope], ladder: Ladder
) -> list[TopBoard]:
    """Each engine's top :data:`~web.leaderboards.ranking.TOP_ROWS` in ``ladder``'s system."""
    boards = []
    for engine in engines:
        scope = scopes.get(engine.slug)
        rated = lb.rates(scope, ladder.system)
        boards.append(
            TopBoard(
                engine=engine,
                rows=lb.top(scope, ladder),
                url=reverse("tournaments:leaderboard", args=[engine.slug])
                + ladder_params.query_string(ladder),
                rated=rated,
                note="" if rated else not_rated_note(scope, ladder.system),
            )
        )
    return boards
