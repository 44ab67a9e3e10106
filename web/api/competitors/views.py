"""``GET /api/v1/competitors/{id}/games/``: a competitor's games as JSON pages or one CSV.

Public, like the competitor pages: the same games (listed ones, newest first)
under the same filters, results only once a game is public in full. JSON is
paginated like every list; ``?format=csv`` (or ``Accept: text/csv``) streams
every matching game (:mod:`stats.export`). Errors are JSON ``{detail, code}``
or field errors whatever format was asked.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import Competitor, Game
from stats import competitor as stats
from stats import export
from stats.filters import GameFilters
from web.api.bots.serializers import QuerySerializer
from web.api.games.serializers import MAX_ID, EngineField, PublicSeatSerializer

NOT_FOUND = OpenApiResponse(description="No such competitor, or a page past the end.")


class CsvRenderer(renderers.BaseRenderer):
    """Selects the CSV answer (``?format=csv``); the view streams it itself.

    Only an answer the view did not stream reaches ``render`` (none does:
    errors switch back to JSON), and it is written as JSON rather than lost.
    """

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context=None):
        return json.dumps(data, default=str).encode()


class CompetitorGamesQuery(QuerySerializer):
    """The filters of the list; the same as the competitor page's."""

    engine = EngineField(required=False, help_text="Only games of this engine.")
    tournament = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text="Only games of this tournament."
    )
    rated = serializers.ChoiceField(
        choices=["true", "false"], required=False, help_text="Only rated (true) or unrated games."
    )
    opponent = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="Only games shared with this competitor (its id).",
    )

    def filters(self) -> GameFilters:
        data = dict(self.validated_data)
        if "rated" in data:
            data["rated"] = data["rated"] == "true"
        return GameFilters(**data)


class CompetitorSeatSerializer(PublicSeatSerializer):
    """The competitor's own seat (the first, if it held several)."""


class CompetitorGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.CharField()
    engine_name = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    rated = serializers.BooleanField()
    unrated_reason = serializers.ChoiceField(
        choices=Game.UnratedReason.choices, allow_null=True, help_text="Null when rated."
    )
    tournament = serializers.IntegerField(allow_null=True)
    tournament_name = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    seat = CompetitorSeatSerializer(
        allow_null=True,
        help_text="The competitor's seat; rank, score and forfeited are null until the game is "
        "public in full (finished, and its duplicate set too).",
    )
    seats = PublicSeatSerializer(many=True, help_text="Every seat in seat order.")


class CompetitorGamesView(GenericAPIView):
    permission_classes = [AllowAny]
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]
    serializer_class = CompetitorGameSerializer

    @extend_schema(
        operation_id="competitors_games_list",
        summary="A competitor's games, as JSON pages or one CSV",
        description=(
            "Listed games of the competitor (bot or person), newest first, filtered like its "
            "page. Results (rank, score, forfeit) are null until a game is public in full. "
            "`format=csv` (or `Accept: text/csv`) answers every matching game as one CSV, not "
            "paginated: game, url, engine, status, rated, tournament, created_at, finished_at, "
            "players, seat, rank, score, forfeited, opponents; text a spreadsheet would run as "
            "a formula starts with `'`."
        ),
        parameters=[
            OpenApiParameter("id", int, OpenApiParameter.PATH, description="The competitor's id."),
            CompetitorGamesQuery,
            OpenApiParameter(
                "format",
                str,
                enum=["json", "csv"],
                description="json (the default, paginated) or csv (every game).",
            ),
        ],
        responses={
            (200, "application/json"): CompetitorGameSerializer(many=True),
            (200, "text/csv"): OpenApiTypes.STR,
            404: NOT_FOUND,
        },
        auth=[],
    )
    def get(self, request: Request, id: int) -> Any:
        competitor = get_object_or_404(Competitor, pk=id)
        query = CompetitorGamesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        filters = query.filters()
        if request.accepted_renderer.format == "csv":
            self.paginator.check_query(request)  # listed in the schema: refused, not ignored
            name = slugify(competitor.name.replace("/", "-")) or "competitor"
            response = StreamingHttpResponse(
                export.csv_lines(competitor, filters), content_type="text/csv; charset=utf-8"
            )
            response["Content-Disposition"] = (
                f'attachment; filename="{name}-{competitor.pk}-games.csv"'
            )
            return response
        page = self.paginate_queryset(stats.games_of(competitor, filters))
        records = [export.record(row) for row in stats.game_rows(competitor, page)]
        return self.get_paginated_response(CompetitorGameSerializer(records, many=True).data)

    def handle_exception(self, exc: Exception) -> Response:
        """An error is JSON (``{detail, code}`` or field errors), also when CSV was asked."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = renderers.JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return response
