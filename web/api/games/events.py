"""Tournament endpoints of the REST API. Thin: reads in ``tournaments.selectors.listings`` and
``tournaments.selectors.standings_table``, entering and withdrawing in ``tournaments.events``.

Reading is public, like the tournament pages: the list (drafts left out, as
on the pages), one tournament, its rounds with tables, its standings and
crosstable. A bot's owner enters their bot while entries are open and
withdraws it the same way; a person enters and withdraws only themselves.
The bot is looked up among the caller's own: another owner's bot is refused
exactly like a missing one (400 on ``bot`` in a body, as ``POST games/``
does; 404 in a path, as the bot endpoints do), so its existence is not
confirmed.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from botapi.models import Bot
from games.models import Competitor
from people import services as person_services
from tournaments import events
from tournaments.models import Entrant, Tournament
from tournaments.selectors import listings as event_listings
from tournaments.selectors import standings_table as event_standings
from web.api.games import event_serializers as s
from web.api.toolkit.errors import Conflict

NOT_FOUND = OpenApiResponse(description="No such tournament (drafts are not public).")
ENTRIES_CLOSED = OpenApiResponse(
    description="Entries are not open (`entries_closed`): the tournament has started, ended or "
    "was cancelled."
)
REFUSED = OpenApiResponse(
    description='Field errors (`{"bot": [...]}`: not one of your bots; `{"person": [...]}`: '
    "not your own username; neither or both sent), or the entry refused as `{detail, code}` "
    "(`entry_refused`, a sentence naming what to change): the bot does not play the "
    "tournament's engine or is not active, the league's pool does not admit bots (or people), "
    "a person has not accepted bot opponents in rated games where the event needs it, or "
    "the competitor is already entered."
)


class EntryRefused(exceptions.APIException):
    """``events.EventError`` as an answer: the service's sentence says what to change."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "the entry was refused"
    default_code = "entry_refused"


def require_entries_open(tournament: Tournament) -> None:
    """Owners enter and withdraw through the API only while entries are open (409 otherwise).

    Once the event runs, taking an entrant out forfeits its games: the
    organiser's decision, in the admin.
    """
    if tournament.status != Tournament.Status.ENTRIES_OPEN:
        raise Conflict(
            f"entries to {tournament.name} are closed: it is {tournament.get_status_display()}",
            "entries_closed",
        )


@extend_schema_view(
    list=extend_schema(
        summary="Tournaments",
        description=(
            "Every tournament past its draft: running and paused ones first, then those with "
            "entries open, then finished and cancelled ones. The event seed is null until the "
            "event has ended; its commitment is public from the start."
        ),
        responses={200: s.TournamentSerializer(many=True)},
        auth=[],
    ),
    retrieve=extend_schema(
        summary="One tournament, with its entrants",
        description="Settings, status (with the reason when paused, cancelled or held up), the "
        "seed commitment, the event seed once the event is over, and the entrants in seed order.",
        responses={200: s.TournamentDetailSerializer, 404: NOT_FOUND},
        auth=[],
    ),
)
class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Read tournaments; enter and withdraw your bots."""

    serializer_class = s.TournamentSerializer
    lookup_value_regex = r"\d+"
    http_method_names = ["get", "post", "delete", "head", "options"]

    def get_permissions(self) -> list[Any]:
        if self.action in ("enter", "withdraw", "withdraw_self", "check_in"):
            return [IsAuthenticated()]
        return [AllowAny()]

    def get_queryset(self) -> QuerySet[Tournament]:
        return event_listings.public_tournaments()

    def get_serializer_class(self) -> type:
        return s.TournamentDetailSerializer if self.action == "retrieve" else s.TournamentSerializer

    # ------------------------------------------------------------- reads
    @extend_schema(
        summary="A tournament's rounds: tables, seats in seat order, games and results",
        description=(
            "Every round so far, oldest first. A table's seats are in seat order (0 moves "
            "first); `rank`, `score` and `points` are null until the table has finished (a "
            "duplicate set: when its last game has), and each game is readable at "
            "GET /api/v1/games/{id}/ under the spectator's rules."
        ),
        responses={200: s.RoundSerializer(many=True), 404: NOT_FOUND},
        auth=[],
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        board = event_standings.board(tournament)
        rounds = event_listings.rounds_of(tournament, board.entrants, board.history)
        return Response(s.RoundSerializer(rounds, many=True).data)

    @extend_schema(
        summary="A tournament's standings",
        description=(
            "Best first: placement points, then tablemates' points, then total game score, "
            "then head-to-head among those still tied, then seed; entrants tied on everything "
            "but seed share a rank. Withdrawn and disqualified entrants keep their points and "
            "say so in `entrant.status`. Live while the event runs."
        ),
        responses={200: s.StandingSerializer(many=True), 404: NOT_FOUND},
        auth=[],
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None) -> Response:
        rows = event_standings.standings(self.get_object())
        return Response(s.StandingSerializer(rows, many=True).data)

    @extend_schema(
        summary="A tournament's crosstable",
        description=(
            "For each entrant (standings order), its record against every entrant it shared a "
            "table with: meetings, tables placed above, below and level, and the sum of the "
            "score differences."
        ),
        responses={200: s.CrosstableSerializer, 404: NOT_FOUND},
        auth=[],
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def crosstable(self, request: Request, pk: str | None = None) -> Response:
        table = event_standings.crosstable(self.get_object())
        return Response(s.CrosstableSerializer(table).data)

    # ----------------------------------------------------------- entries
    @extend_schema(
        summary="Enter one of your bots, or yourself",
        description=(
            'While entries are open, a bot\'s owner enters it with `{"bot": id}` (entering is '
            "the owner's consent): the bot must be yours, active and play the tournament's "
            "engine; another owner's bot is refused like a missing id. A person enters "
            'themselves with `{"person": "<your username>"}`, never anyone else; in a rated '
            "event where bots may play (its league's pool is not people only) your account "
            "must accept bot opponents in rated games. Both go through the same checks: the "
            "league's pool, approval (the entry may wait as `pending`) and the event's state. "
            "Entries not open: 409 `entries_closed`."
        ),
        request=s.EntryRequestSerializer,
        responses={201: s.EntrantSerializer, 400: REFUSED, 404: NOT_FOUND, 409: ENTRIES_CLOSED},
    )
    @action(detail=True, methods=["post"], url_path="entries", pagination_class=None)
    def enter(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        body = s.EntryRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        require_entries_open(tournament)
        competitor = entering(request, body.validated_data)
        try:
            entrant = events.enter(tournament, competitor, by=request.user)
        except events.EventError as exc:
            raise EntryRefused(str(exc)) from None
        view = event_listings.entrant_view(entrant)
        return Response(s.EntrantSerializer(view).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Withdraw one of your bots",
        description=(
            "While entries are open, a bot's owner takes it out again. A bot that is not yours, "
            "or not entered, is 404; entries not open: 409 `entries_closed` (once the event "
            "runs, the organiser withdraws entrants)."
        ),
        parameters=[
            OpenApiParameter(
                "bot_id", int, OpenApiParameter.PATH, description="Id of one of your bots."
            )
        ],
        request=None,
        responses={
            204: None,
            400: OpenApiResponse(
                description="The withdrawal refused (`entry_refused`); `detail` says why."
            ),
            404: OpenApiResponse(
                description="No such tournament, bot of yours, or entry of it (one already "
                "withdrawn or disqualified has none)."
            ),
            409: ENTRIES_CLOSED,
        },
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"entries/(?P<bot_id>\d+)",
        pagination_class=None,
    )
    def withdraw(
        self, request: Request, pk: str | None = None, bot_id: str | None = None
    ) -> Response:
        tournament = self.get_object()
        bot = get_object_or_404(own_bots(request), pk=bot_id)
        require_entries_open(tournament)
        entrant = get_object_or_404(
            Entrant.objects.filter(
                tournament=tournament,
                competitor=bot.competitor_id,
                status__in=(Entrant.Status.ACTIVE, Entrant.Status.PENDING),
            )
        )
        try:
            events.withdraw(entrant, reason="withdrawn by its owner", by=request.user)
        except events.EventError as exc:
            raise EntryRefused(str(exc)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Check in one of your bots, or yourself",
        description=(
            "For a tournament that asks for check-in, while entries are open: say the entrant "
            'is there. `{"bot": id}` checks in one of your entered bots; `{}` checks you in '
            "(a person). Who has not checked in is dropped at the start. Checking in again "
            "changes nothing. Entries not open: 409 `entries_closed`."
        ),
        request=s.CheckInRequestSerializer,
        responses={
            200: s.EntrantSerializer,
            400: OpenApiResponse(
                description="Refused (`entry_refused`, e.g. the event does not ask for "
                "check-in); `detail` says why."
            ),
            404: OpenApiResponse(description="No such tournament, or no entry of yours in it."),
            409: ENTRIES_CLOSED,
        },
    )
    @action(detail=True, methods=["post"], url_path="check-in", pagination_class=None)
    def check_in(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        body = s.CheckInRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        require_entries_open(tournament)
        mine = Entrant.objects.filter(
            tournament=tournament, status__in=(Entrant.Status.ACTIVE, Entrant.Status.PENDING)
        )
        if "bot" in body.validated_data:
            bot = get_object_or_404(own_bots(request), pk=body.validated_data["bot"])
            entrant = get_object_or_404(mine, competitor=bot.competitor_id)
        else:
            entrant = get_object_or_404(
                mine, competitor__kind="person", competitor__user=request.user
            )
        try:
            events.check_in(entrant, by=request.user)
        except events.EventError as exc:
            raise EntryRefused(str(exc)) from None
        return Response(s.EntrantSerializer(event_listings.entrant_view(entrant)).data)

    @extend_schema(
        summary="Withdraw yourself",
        description=(
            "While entries are open, a person who entered takes themselves out again. Not "
            "entered: 404; entries not open: 409 `entries_closed` (once the event runs, the "
            "organiser withdraws entrants)."
        ),
        request=None,
        responses={
            204: None,
            404: OpenApiResponse(description="No such tournament, or no entry of yours in it."),
            409: ENTRIES_CLOSED,
        },
    )
    @action(detail=True, methods=["delete"], url_path="entries/me", pagination_class=None)
    def withdraw_self(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        require_entries_open(tournament)
        me = person_services.ensure_person(request.user).competitor
        entrant = get_object_or_404(
            Entrant.objects.filter(
                tournament=tournament,
                competitor=me,
                status__in=(Entrant.Status.ACTIVE, Entrant.Status.PENDING),
            )
        )
        try:
            events.withdraw(entrant, reason="withdrew themselves", by=request.user)
        except events.EventError as exc:
            raise EntryRefused(str(exc)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


def entering(request: Request, body: dict[str, Any]) -> Competitor:
    """The competitor the body names: one of the caller's bots, or the caller themselves."""
    if "person" in body:
        if body["person"] != request.user.get_username():
            raise exceptions.ValidationError(
                {"person": ["a person enters only themselves: send your own username"]}
            )
        return person_services.ensure_person(request.user).competitor
    bot = own_bots(request).filter(pk=body["bot"]).first()
    if bot is None:
        raise exceptions.ValidationError({"bot": [f"no bot {body['bot']} among yours"]})
    return bot.competitor


def own_bots(request: Request) -> QuerySet[Bot]:
    """The caller's bots: every bot lookup of these endpoints is made among them."""
    return Bot.objects.filter(owner=request.user).select_related("competitor")
