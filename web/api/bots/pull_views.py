"""The pull API: a bot fetches its turns and posts its moves with its own token.

Thin views over :mod:`botapi.pull`. Only ``Authorization: Bot <pull token>``
is accepted here (a user's token does not make anyone a bot); the service
checks the bot is active and in pull mode.

The long poll is served by :func:`long_poll`, an async view around the DRF
view (which keeps authentication, validation, errors and the schema): the
DRF view answers at once or sets the poll up to wait, and the waiting
happens on the event loop, holding no database connection
(:mod:`botapi.pullwait`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from django.http import HttpRequest, HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from botapi import pull, pullwait
from web.api.bots import pull_serializers as s
from web.api.bots.authentication import BotTokenAuthentication

REFUSED = OpenApiResponse(description='`{"detail", "code"}`: the code says why (see the docs).')


class PullRefused(exceptions.APIException):
    """A :class:`botapi.pull.PullError` as an API answer (status and code kept).

    ``wait`` becomes the ``Retry-After`` header (DRF's exception handler adds it).
    """

    def __init__(self, error: pull.PullError) -> None:
        super().__init__(error.message, error.code)
        self.status_code = error.status
        self.wait = error.retry_after_s


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
            "409 `bot_inactive` for a suspended or disabled bot; 429 `too_many_polls` "
            "(with `Retry-After`) when the bot already has 2 polls waiting."
        ),
        parameters=[s.TurnsQuerySerializer],
        responses={200: s.TurnSerializer(many=True), 401: REFUSED, 409: REFUSED, 429: REFUSED},
    )
    def get(self, request: Request) -> Response:
        query = s.TurnsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        poll: pullwait.LongPoll | None = getattr(request, "long_poll", None)
        wait = query.validated_data["wait"] if poll is not None else 0
        try:
            if poll is None:  # served without long_poll(): nothing to wait with
                pull.check_can_pull(self.bot)
                return Response(pull.pending_turns(self.bot))
            return Response(poll.begin(self.bot, wait))
        except pull.PullError as error:
            raise PullRefused(error) from None


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


AsyncView = Callable[..., Coroutine[Any, Any, HttpResponse]]


def long_poll(view_class: type[TurnsView]) -> AsyncView:
    """An async view serving ``view_class`` (a DRF view) whose answer may wait for a turn.

    The DRF view runs in one database section; if it set the poll up to wait,
    the wait happens here, on the event loop, and its turns (or ``[]``) become
    the body of the DRF view's own response, which Django renders afterwards.
    The result carries the DRF view's ``cls`` and ``initkwargs``, so the schema
    still documents it, and is CSRF-exempt like every DRF view.
    """
    sync_view = view_class.as_view()

    async def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        poll = pullwait.LongPoll(asyncio.get_running_loop())
        request.long_poll = poll  # type: ignore[attr-defined]
        try:
            await poll.waiter.prepare()
            response = await pullwait.db_section(sync_view, request, *args, **kwargs)
            if poll.waiting:
                response.data = await poll.wait()
            return response
        finally:
            await poll.close()

    view.cls = sync_view.cls  # type: ignore[attr-defined]
    view.initkwargs = sync_view.initkwargs  # type: ignore[attr-defined]
    view.csrf_exempt = True  # type: ignore[attr-defined]
    return view


@extend_schema(exclude=True)
class TurnsSlashView(TurnsView):
    """``bots/me/turns/``, with the slash the rest of the API uses: same view, undocumented."""


@extend_schema(exclude=True)
class MovesSlashView(MovesView):
    """``games/{id}/moves/``: same view, not re-documented."""
