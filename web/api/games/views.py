"""Game endpoints of the REST API. Thin: creation in ``games.services``, what may be
shown in ``games.selectors.spectator``, the audit in ``games.records.verification``.

Reading a game is public (the same record the game page shows to anyone);
creating one needs an authenticated user, who may seat their own bots, the
example bots and other owners' bots open to challenges (``botapi.selectors.seating``;
a game with another owner's bot is an unrated challenge).
"""

from __future__ import annotations

import functools
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from botapi.selectors.capacity import BotAtCapacity
from games.models import Game, Seat
from games.records import export as game_export
from games.records.verification import NotVerifiable, verify_game
from games.selectors import spectator
from games.services import GameSetupError, create_game
from web.api.games import serializers as s
from web.api.toolkit.errors import Conflict
from web.api.toolkit.pagination import NewestFirstCursorPagination
from web.api.toolkit.plain_data import Representer, representer

NOT_FOUND = OpenApiResponse(description="No such game.")
AT_CAPACITY = OpenApiResponse(
    description="A seated bot already plays as many games as it allows (`bot_at_capacity`), "
    "or you already hold your share of another owner's bot (`bot_share_used`)."
)
NOT_FINISHED = OpenApiResponse(
    description="The game is not finished (`not_finished`): only a finished game reveals its seed."
)
NOT_PUBLIC = OpenApiResponse(
    description="The game's record is not public yet (`not_finished`): the game is not "
    "finished, or it belongs to a duplicate set whose other games are still being played."
)


@functools.cache
def _game_representer() -> Representer:
    """What ``GameSerializer(record).data`` holds, built once (``web.api.toolkit.plain_data``)."""
    return representer(s.GameSerializer)


def games_queryset() -> QuerySet[Game]:
    seats = Seat.objects.select_related("competitor").order_by("position")
    return Game.objects.select_related("outcome").prefetch_related(Prefetch("seats", seats))


@extend_schema_view(
    list=extend_schema(
        summary="Recent games",
        description=(
            "Newest first; the same public record as one game, without the move log. Local "
            "test games (`manage.py play`) are not listed; each is still readable by its id. "
            "Paged by cursor: follow `next` (older games) and `previous` (newer ones); games "
            "created meanwhile do not shift the pages. `count` is exact up to 1,000, an "
            "estimate above."
        ),
        parameters=[s.GameFilterSerializer],
        responses={200: s.GameSerializer(many=True)},
        auth=[],
    ),
    retrieve=extend_schema(
        summary="One game: seats, seed commitment, public move log; seed and outcome once finished",
        description=(
            "While the game is not finished no action is shown (chance's or a player's): each "
            "ply lists who moved and the public events it produced, and only the seed's "
            "commitment sha256(seed) is shown. Once finished: every action with its "
            "description, the seed and the outcome."
        ),
        responses={200: s.GameDetailSerializer, 404: NOT_FOUND},
        auth=[],
    ),
)
class GameViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Create games between bots; read and verify any game."""

    serializer_class = s.GameSerializer
    pagination_class = NewestFirstCursorPagination
    lookup_value_regex = r"\d+"
    http_method_names = ["get", "post", "head", "options"]

    def get_permissions(self) -> list[Any]:
        if self.action == "create":
            return [IsAuthenticated()]
        return [AllowAny()]

    def get_queryset(self) -> QuerySet[Game]:
        if self.action != "list":
            return games_queryset().order_by("-created_at", "-id")
        # Local test games (manage.py play) are not listed; a page's seats are read as rows.
        query = s.GameFilterSerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        games = Game.objects.select_related("outcome").order_by("-created_at", "-id")
        return games.filter(listed=True, **query.validated_data)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # An anonymous caller's page is kept by cache_page (web.api.games.urls).
        page = spectator.attach_seat_rows(list(self.paginate_queryset(self.get_queryset())))
        write = _game_representer()  # GameSerializer's data, without DRF's per-record machinery
        return self.get_paginated_response(
            [write(spectator.game_record(game, with_moves=False)) for game in page]
        )

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        return Response(s.GameDetailSerializer(spectator.game_record(game)).data)

    @extend_schema(
        summary="Create a game between bots",
        description=(
            "Seat your own bots, the example bots and other owners' bots open to challenges "
            "(GET /api/v1/bots/open/), by id, in seat order. A game seating another owner's bot "
            "is a challenge and always unrated, and so is a game where one owner holds several "
            "seats, example bots aside (`rated` left out means false; true is a 400); the record's "
            "`unrated_reason` says why a game is unrated. "
            "Another owner's private bot is refused exactly like a missing id. The seed is "
            "random unless given; a game with a chosen seed cannot be rated. The referee starts "
            "the game at once; the answer is the game as it stands then. A bot already playing "
            "its `max_concurrent_games`, in games created by anyone, is refused "
            "(409 `bot_at_capacity`); so is a game that would give you more than half of another "
            "owner's bot's games at once, or leave its owner none (409 `bot_share_used`)."
        ),
        request=s.GameCreateSerializer,
        responses={201: s.GameDetailSerializer, 409: AT_CAPACITY},
    )
    def create(self, request: Request) -> Response:
        body = s.GameCreateSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        competitors = [bot.competitor for bot in data["seats"]]
        try:
            game = create_game(
                data["engine"],
                competitors,
                options=data["options"],
                seed=data.get("seed"),
                rated=data["rated"],
                move_time_ms=data["move_time_ms"],
                time_bank_ms=data["time_bank_ms"],
                created_by=request.user,
            )
        except BotAtCapacity as exc:  # or BotShareUsed: its code says which
            raise Conflict(f"{exc.lead}: {exc}", exc.code) from None
        except GameSetupError as exc:
            raise exceptions.ValidationError({"non_field_errors": [str(exc)]}) from None
        game = games_queryset().get(pk=game.pk)
        return Response(
            s.GameDetailSerializer(spectator.game_record(game)).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Verify a finished game against its seed",
        description=(
            "Replays the game: the seed must match the commitment published at creation, every "
            "chance outcome must be the one the seed produces, every move legal, and the replay "
            "must reproduce the recorded outcome. `ok` is false with each mismatch in `problems`."
        ),
        request=None,
        responses={200: s.VerificationSerializer, 404: NOT_FOUND, 409: NOT_FINISHED},
        auth=[],
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def verify(self, request: Request, pk: str | None = None) -> Response:
        game = get_object_or_404(games_queryset(), pk=pk)
        try:
            report = verify_game(game)
        except NotVerifiable as exc:
            raise Conflict(str(exc), "not_finished") from None
        return Response(s.VerificationSerializer(report.as_dict()).data)

    @extend_schema(
        summary="Download a finished game's full record, to replay it yourself",
        description=(
            "Engine, rules version, options, seed and commitment, the seats, every move in "
            "order (chance's included, with its source) and the outcome. In Python, "
            "`engines.replay(r['engine'], r['num_players'], r['options'], "
            "[(m['seat'], m['action']) for m in r['moves']])` rebuilds the final state; its "
            "outcome's ranks with forfeited seats moved last are `outcome.ranks`. Published "
            "with the seed: 409 `not_finished` before the game is finished, and for a game of a "
            "duplicate set until the whole set is over."
        ),
        request=None,
        responses={200: s.GameRecordSerializer, 404: NOT_FOUND, 409: NOT_PUBLIC},
        auth=[],
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def record(self, request: Request, pk: str | None = None) -> Response:
        game = get_object_or_404(games_queryset(), pk=pk)
        try:
            record = game_export.full_record(game)
        except game_export.NotPublic as exc:
            raise Conflict(str(exc), "not_finished") from None
        return Response(s.GameRecordSerializer(record).data)
