"""The pull API: a bot fetches its turns and posts its moves with its own token.

Thin views over :mod:`botapi.pull`. Only ``Authorization: Bot <pull token>``
is accepted here (a user's token does not make anyone a bot); the service
checks the bot is active and in pull mode.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from botapi import pull
from botapi.api import pull_serializers as s
from botapi.api.authentication import BotTokenAuthentication

REFUSED = OpenApiResponse(description='`{"detail", "code"}`: the code says why (see the docs).')


class PullRefused(exceptions.APIException):
    """A :class:`botapi.pull.PullError` as an API answer (status and code kept)."""

    def __init__(self, error: pull.PullError) -> None:
        super().__init__(error.message, error.code)
        self.status_code = error.status


class _PullView(APIView):
    authentication_classes = [BotTokenAuthentication]
    permission_classes = [IsAuthenticated]

    @property
    def bot(self) -> Any:
        return self.request.auth


class TurnsView(_PullView):
    @extend_schema(
        summary="Pull mode: the turns your bot owes (long poll)",
        description=(
            "Answers at once when turns are pending, else waits up to `wait` seconds for "
            "one and answers `[]` if none came. Each turn is the `act` request a push bot "
            "would get (bot protocol v1); answer it with POST /api/v1/games/{id}/moves. "
            "409 `bot_inactive` for a suspended or disabled bot."
        ),
        parameters=[s.TurnsQuerySerializer],
        responses={200: s.TurnSerializer(many=True), 401: REFUSED, 409: REFUSED},
    )
    def get(self, request: Request) -> Response:
        query = s.TurnsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        try:
            turns = pull.wait_for_turns(self.bot, query.validated_data["wait"])
        except pull.PullError as error:
            raise PullRefused(error) from None
        return Response(turns)


class MovesView(_PullView):
    @extend_schema(
        summary="Pull mode: answer a turn",
        description=(
            "Plays the action for your bot's seat that is to move. Refused, changing "
            "nothing: 400 `illegal_action` (with the engine's reason) or "
            "`wrong_request_id`; 404 `not_found` (no such game with your bot in it); 409 "
            "`stale_ply`, `not_running`, `not_your_turn`, `forfeited`, `deadline_passed` "
            "(the clock then plays the default) or `bot_inactive`."
        ),
        request=s.MoveRequestSerializer,
        responses={
            201: s.MoveSerializer,
            400: REFUSED,
            401: REFUSED,
            404: REFUSED,
            409: REFUSED,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = s.MoveRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        answer = pull.MoveAnswer(**body.validated_data)
        try:
            move = pull.submit_move(self.bot, game_id, answer)
        except pull.PullError as error:
            raise PullRefused(error) from None
        data = {
            "game": move.game_id,
            "ply": move.ply,
            "seat": move.seat,
            "action": move.action,
            "source": move.source,
            "latency_ms": move.latency_ms,
        }
        return Response(data, status=status.HTTP_201_CREATED)


@extend_schema(exclude=True)
class TurnsSlashView(TurnsView):
    """``bots/me/turns/``, with the slash the rest of the API uses: same view, undocumented."""


@extend_schema(exclude=True)
class MovesSlashView(MovesView):
    """``games/{id}/moves/``: same view, not re-documented."""
