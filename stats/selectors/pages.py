"""What the competitor sections of a page show, gathered once for the bot page and the person page.

Both pages render ``templates/stats/_competitor.html`` with a
:class:`CompetitorSections`; the numbers come from :mod:`stats.selectors.competitor`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.urls import reverse

from games.models import Competitor
from stats.selectors import competitor as stats
from stats.selectors.filters import GameFilters, from_page


@dataclass(frozen=True)
class LatestRating:
    """A ladder's last counted point in one system, for the chart's heading."""

    name: str
    value: float
    sigma: float | None
    score: float


@dataclass
class CompetitorSections:
    competitor: Competitor
    ladders: list[stats.LadderHistory]
    seats: list[stats.SeatResults]
    head_to_head: list[stats.HeadToHead]
    games: stats.GamesPage
    filters: GameFilters
    choices: stats.FilterChoices
    opponents: list[tuple[int, str]]
    problems: list[str] = field(default_factory=list)

    @property
    def charts(self) -> list[dict[str, Any]]:
        return [ladder.as_chart() for ladder in self.ladders]

    @property
    def latest(self) -> dict[int, list[LatestRating]]:
        """Per scope id, the latest rating in each system (the chart's last point)."""
        return {
            ladder.scope_id: [
                LatestRating(stats.SYSTEM_NAMES.get(name, name), p.value, p.sigma, p.score)
                for name, points in ladder.systems.items()
                for p in points[-1:]
            ]
            for ladder in self.ladders
        }

    @property
    def export_url(self) -> str:
        """The export API's address for the games listed now (filters kept, cursor dropped)."""
        query = self.filters.query(before=None)
        url = reverse("stats-api:competitor-games", args=[self.competitor.pk])
        return f"{url}?{query}" if query else url

    @property
    def csv_url(self) -> str:
        query = self.filters.query(before=None)
        url = reverse("stats-api:competitor-games", args=[self.competitor.pk])
        return f"{url}?{query + '&' if query else ''}format=csv"

    @property
    def older_query(self) -> str | None:
        if self.games.next_before is None:
            return None
        return self.filters.query(before=self.games.next_before)

    @property
    def opponents_met(self) -> int:
        return len({row.opponent_id for row in self.head_to_head})


def competitor_sections(competitor: Competitor, params: QueryDict) -> CompetitorSections:
    """Everything the sections show; a fixed number of queries (see ``competitor``)."""
    parsed = from_page(params)
    rivals = stats.head_to_head(competitor)
    opponents = sorted({(row.opponent_id, row.opponent) for row in rivals}, key=lambda o: o[1])
    chosen = parsed.filters.opponent
    if chosen is not None and all(pk != chosen for pk, _ in opponents):
        opponents.append((chosen, f"competitor #{chosen}"))
    return CompetitorSections(
        competitor=competitor,
        ladders=stats.rating_history(competitor),
        seats=stats.results_by_seat(competitor),
        head_to_head=rivals,
        games=stats.games_page(competitor, parsed.filters),
        filters=parsed.filters,
        choices=stats.filter_choices(competitor),
        opponents=opponents,
        problems=parsed.problems,
    )
