"""Bot endpoints of the REST API. Thin: input through serializers, rules in ``botapi.services``.

Every bot lookup is limited to the requester's own bots, so another user's
bot answers 404 exactly like a bot that does not exist (what others may see
of an open bot is in ``open_views``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import exceptions, filters, mixins, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from botapi import services
from botapi.models import Bot
from games import spectator
from games.models import Game, Seat
from web.api.bots import serializers as s
from web.api.bots import visibility
from web.api.bots.permissions import IsBotOwner
from web.api.toolkit.pagination import MoveLogPagination
from web.api.toolkit.parsers import FlatFormParser, LimitedJSONParser
from web.http import login_throttle

CONFLICT = OpenApiResponse(description="Not allowed in the bot's current state; `detail` says why.")
NOT_FOUND = OpenApiResponse(description="No such bot among yours.")


def _query(serializer_class: type, request: Request) -> dict[str, Any]:
    """Validated query parameters; a bad one is a 400 naming it."""
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return {k: v for k, v in serializer.validated_data.items() if v is not None}


@extend_schema_view(
    list=extend_schema(summary="List your bots", parameters=[s.BotFilterSerializer]),
    retrieve=extend_schema(summary="One of your bots", responses={200: s.BotSerializer}),
    partial_update=extend_schema(
        summary="Change a bot",
        description=(
            "Name, description, engines, mode, endpoint_url, max_concurrent_games, "
            "visibility (who besides you may seat the bot; it applies to games created from "
            "then on) and alert_webhook_url. "
            "Switching to push mode revokes the pull token; switching to pull mode needs "
            "POST rotate-pull-token/ to get one. previous_version is fixed at registration."
        ),
        request=s.BotUpdateSerializer,
        responses={200: s.BotSerializer},
    ),
    destroy=extend_schema(
        summary="Delete a bot that has never played",
        description="A bot with game history (409 `has_games`) or entered in a tournament "
        "(409 `entered`) is kept; suspend it instead.",
        responses={204: None, 404: NOT_FOUND, 409: CONFLICT},
    ),
)
class BotViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Register and manage your bots."""

    serializer_class = s.BotSerializer
    permission_classes = [IsAuthenticated, IsBotOwner]
    filter_backends = [filters.SearchFilter, filters.OrderingFilter]
    search_fields = ["name", "description"]
    ordering_fields = ["name", "created_at", "status"]
    ordering = ["name", "id"]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    lookup_value_regex = r"\d+"
    throttle_scope: str | None = None

    def get_queryset(self) -> QuerySet[Bot]:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return Bot.objects.none()
        return Bot.objects.filter(owner=self.request.user).select_related("competitor")

    def get_serializer_class(self) -> type:
        if self.action == "partial_update":
            return s.BotUpdateSerializer  # previous_version is read-only there
        return super().get_serializer_class()

    def filter_queryset(self, queryset: QuerySet[Bot]) -> QuerySet[Bot]:
        queryset = super().filter_queryset(queryset)
        if self.action != "list":
            return queryset
        params = _query(s.BotFilterSerializer, self.request)
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        if "mode" in params:
            queryset = queryset.filter(mode=params["mode"])
        if "engine" in params:
            # Engines are a JSON list; an owner has few bots, so match in Python
            # (JSON containment is not portable to SQLite).
            wanted = params["engine"]
            ids = [pk for pk, slugs in queryset.values_list("pk", "engines") if wanted in slugs]
            queryset = queryset.filter(pk__in=ids)
        return queryset

    def get_throttles(self) -> list[Any]:
        # These make the server contact a URL of the user's choosing: rate-limited.
        pinging = self.action in ("create", "ping", "reactivate")
        self.throttle_scope = "bot-ping" if pinging else None
        return super().get_throttles()

    def check_throttles(self, request: Request) -> None:
        # A registration counts only once it is valid and will ping (push mode): see create().
        if self.action != "create":
            super().check_throttles(request)

    # -------------------------------------------------------------- create
    @extend_schema(
        summary="Register a bot",
        description=(
            "Creates the bot and its competitor. The answer holds the signing secret "
            "(and, in pull mode, the pull token) - shown only this once. A push bot is "
            "pinged right away; the result is in `health`. To register a new version of "
            "one of your bots, name it in `previous_version`: the new bot gets its own "
            "ratings, and its owner page compares the versions."
        ),
        request=s.BotSerializer,
        responses={201: s.BotCreatedSerializer},
    )
    def create(self, request: Request) -> Response:
        serializer = s.BotSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        if serializer.validated_data.get("mode", Bot.Mode.PUSH) == Bot.Mode.PUSH:
            super().check_throttles(request)  # before anything is written
        bot, credentials = services.register_and_ping(request.user, **serializer.validated_data)
        answer = {
            **s.BotSerializer(bot, context=self.get_serializer_context()).data,
            "signing_secret": credentials.signing_secret,
            "pull_token": credentials.pull_token,
        }
        return Response(answer, status=status.HTTP_201_CREATED)

    # -------------------------------------------------------------- update
    def perform_update(self, serializer: s.BotSerializer) -> None:
        services.update_bot(serializer.instance, dict(serializer.validated_data))

    def perform_destroy(self, instance: Bot) -> None:
        services.delete_bot(instance)

    # --------------------------------------------------------- credentials
    @extend_schema(
        summary="Rotate the signing secret",
        description="The old secret stops working at once. Shown only in this answer.",
        request=None,
        responses={200: s.SigningSecretSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request: Request, pk: str | None = None) -> Response:
        secret = services.rotate_signing_secret(self.get_object())
        return Response({"signing_secret": secret})

    @extend_schema(
        summary="Rotate (or create) the pull token",
        description="Pull mode only. The old token stops working at once. Shown only here.",
        request=None,
        responses={200: s.PullTokenSerializer, 404: NOT_FOUND, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], url_path="rotate-pull-token")
    def rotate_pull_token(self, request: Request, pk: str | None = None) -> Response:
        token = services.rotate_pull_token(self.get_object())
        return Response({"pull_token": token})

    # -------------------------------------------------------------- health
    @extend_schema(
        summary="Ping the bot now",
        description="Sends a signed `ping` to a push bot and records the result as its health.",
        request=None,
        responses={200: s.PingResultSerializer, 404: NOT_FOUND, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def ping(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        result = services.ping_bot(bot)
        return Response(
            {
                "ok": result.ok,
                "fault": None if result.fault is None else str(result.fault),
                "detail": result.detail or bot.last_ping_detail,
                "latency_ms": round(result.latency_ms, 1),
                "status_code": result.status_code,
                "reply": result.reply if result.ok else None,
                "health": s.BotHealthSerializer(bot).data,
            }
        )

    @extend_schema(
        summary="Suspend the bot",
        description="It is no longer scheduled for games. The reason is shown with the status.",
        request=s.SuspendSerializer,
        responses={200: s.BotSerializer, 404: NOT_FOUND, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def suspend(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        body = s.SuspendSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reason = body.validated_data.get("reason") or "suspended by its owner"
        services.suspend_bot(bot, reason)
        return Response(s.BotSerializer(bot, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="Reactivate a suspended bot",
        description=(
            "A push bot must answer a ping first (409 `ping_failed` otherwise). "
            "A bot the staff disabled stays disabled (409 `disabled`)."
        ),
        request=None,
        responses={200: s.BotSerializer, 404: NOT_FOUND, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def reactivate(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        services.reactivate_bot(bot)
        return Response(s.BotSerializer(bot, context=self.get_serializer_context()).data)

    # --------------------------------------------------------------- games
    def _games(self, bot: Bot) -> QuerySet[Game]:
        seats = Seat.objects.select_related("competitor").order_by("position")
        return spectator.annotate_set_open(
            Game.objects.filter(seats__competitor_id=bot.competitor_id)
            .distinct()
            .select_related("outcome")
            .prefetch_related(Prefetch("seats", queryset=seats))
        )

    @extend_schema(
        summary="Games the bot plays or played",
        parameters=[s.GameFilterSerializer],
        responses={200: s.BotGameSerializer(many=True), 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"], filter_backends=[], serializer_class=s.BotGameSerializer)
    def games(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        params = _query(s.GameFilterSerializer, request)
        games = self._games(bot).filter(**params).order_by("-created_at", "-id")
        page = self.paginate_queryset(games)
        context = {**self.get_serializer_context(), "bot": bot}
        return self.get_paginated_response(
            s.BotGameSerializer(page, many=True, context=context).data
        )

    @extend_schema(
        summary="A game's move log, with this bot's requests, replies, latencies and faults",
        description=(
            "Request/reply excerpts, latency and faults appear only for this bot's own moves. "
            "While the game is not finished (a game of a duplicate set: while its set is not), "
            "chance moves are left out and other seats' actions are null; then every action "
            "is shown."
        ),
        parameters=[s.MoveFilterSerializer],
        responses={200: s.BotMoveSerializer(many=True), 404: NOT_FOUND},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"games/(?P<game_id>\d+)/moves",
        filter_backends=[],
        pagination_class=MoveLogPagination,
        serializer_class=s.BotMoveSerializer,
    )
    def moves(
        self, request: Request, pk: str | None = None, game_id: str | None = None
    ) -> Response:
        bot = self.get_object()
        game = get_object_or_404(self._games(bot), pk=game_id)
        finished = visibility.record_public(game)
        own = visibility.own_seats(bot, game)
        params = _query(s.MoveFilterSerializer, request)
        moves = visibility.visible_moves(game, finished)
        if params.get("mine") or params.get("faulty"):
            moves = moves.filter(seat__in=own)
        if params.get("faulty"):
            moves = moves.exclude(fault_kind="")
        page = self.paginate_queryset(moves)
        context = {**self.get_serializer_context(), "own_seats": own, "finished": finished}
        return self.get_paginated_response(
            s.BotMoveSerializer(page, many=True, context=context).data
        )


class TokenView(APIView):
    """Exchange a username and password for the API token (created on first use).

    Failed logins are limited per account and per address like every login
    (``web.http.login_throttle``); the ``auth-token`` scope limits all
    requests per address besides.
    """

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    # JSON like the rest of the API, and the form that `curl -d` sends (parsers module doc).
    parser_classes = [LimitedJSONParser, FlatFormParser]
    throttle_scope = "auth-token"

    @extend_schema(
        summary="Get your API token",
        description=(
            "The username and password as JSON or as a form "
            "(`curl -d username=… -d password=…`). "
            "Too many failed logins for one account, or from one address, within "
            "15 minutes answer 429 `throttled` with `Retry-After`, whatever the password."
        ),
        request=s.TokenRequestSerializer,
        responses={200: s.TokenSerializer},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = s.TokenRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = authenticate(
            request,
            username=body.validated_data["username"],
            password=body.validated_data["password"],
        )
        refused = login_throttle.refusal(request)
        if refused is not None:
            raise exceptions.Throttled(wait=refused.retry_after, detail=refused.message)
        if user is None or not user.is_active:
            raise exceptions.ValidationError(
                {"non_field_errors": ["wrong username or password"]}, code="authorization"
            )
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
