"""Template context for every page: the signed-in person's games waiting for their move."""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest

from web.people.waiting import WaitingGame, games_waiting_for


class WaitingBadge:
    """The header badge's games, looked up only when a template reads them.

    Lazy, so a response that renders no page (a redirect, JSON) pays nothing,
    and an anonymous visitor never costs a query. The game whose play page is
    being shown is left out: that page says whose turn it is itself.
    """

    def __init__(self, request: HttpRequest) -> None:
        self._request = request

    @cached_property
    def games(self) -> list[WaitingGame]:
        user = getattr(self._request, "user", None)
        if user is None or not user.is_authenticated:
            return []
        return [game for game in games_waiting_for(user) if game.url != self._request.path]


def waiting(request: HttpRequest) -> dict[str, WaitingBadge]:
    return {"waiting": WaitingBadge(request)}
