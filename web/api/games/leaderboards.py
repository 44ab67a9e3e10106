"""A leaderboard in the REST API: JSON pages like the page's, or the whole board as one CSV.

    GET /api/v1/leaderboards/{engine}/          an engine's global ladder
    GET /api/v1/leagues/{slug}/leaderboard/     a league's own ladder

Public, like the pages, with the same parameters (``system``, ``kind``,
``page``, plus ``page_size``); the rows are :mod:`web.leaderboards.ranking`'
(ranked in the database, a filtered rank being the rank among those shown)
as :mod:`web.leaderboards.export` writes them. ``?format=csv`` or
``Accept: text/csv`` streams every row. Stricter than the page: a value it
cannot read, or a system the ladder is not rated in, is a 400 naming the
parameter; an unknown engine or league is a 404 ``{detail, code}``; errors are
JSON whatever format was asked.
"""

from __future__ import annotations

import functools
from typing import Any

from django.http import StreamingHttpResponse
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, renderers, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from botapi.models import engine_slugs
from games.models import Competitor
from ratings import selectors as ratings_selectors
from ratings.models import RatingScope
from tournaments.models import League
from tournaments.selectors import listings as event_listings
from web.api.bots.serializers import QuerySerializer
from web.api.competitors.views import CsvRenderer
from web.api.toolkit.plain_data import Representer, representer
from web.cache import exports, invalidation
from web.leaderboards import export as leaderboard_export
from web.leaderboards import ranking as leaderboards

NOT_FOUND = OpenApiResponse(
    description="No such engine or league (`not_found`), or a page past the end."
)


class LeaderboardQuery(QuerySerializer):
    """The board's parameters; the same as the page's (whose old ``by`` is not read here)."""

    system = serializers.ChoiceField(
        choices=list(leaderboards.SYSTEMS),
        required=False,
        help_text="The system that ranks and whose numbers are given: trueskill (the default) "
        "and openskill by mu - 3 sigma, elo by the rating. One the ladder is not rated in is a "
        "400.",
    )
    kind = serializers.ChoiceField(
        choices=list(leaderboards.KINDS),
        required=False,
        help_text="all (the default), bot or person; ranks are then among those listed.",
    )

    def ladder(self, scope: RatingScope | None) -> leaderboards.Ladder:
        """The asked ladder, or a 400 on ``system`` when the scope does not rate it."""
        data = self.validated_data
        ladder = leaderboards.Ladder(
            data.get("system", leaderboards.DEFAULT_SYSTEM),
            data.get("kind", leaderboards.DEFAULT_KIND),
        )
        if not leaderboards.rates(scope, ladder.system):
            rated = ", ".join(leaderboards.rated_systems(scope))
            raise exceptions.ValidationError(
                {"system": [f"this ladder is not rated in {ladder.system}; it is in: {rated}"]}
            )
        return ladder


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="1 + the entries (of the kind asked) with a strictly better score; ties share it."
    )
    competitor = serializers.IntegerField(help_text="The competitor's id.")
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competitor.Kind.choices)
    games = serializers.IntegerField(help_text="Rated games in this ladder.")
    provisional = serializers.BooleanField(
        help_text="Fewer rated games than the site's threshold (10 unless configured): ranked, "
        "but the score can still move a lot."
    )
    value = serializers.FloatField(help_text="The Elo rating, or mu.")
    sigma = serializers.FloatField(allow_null=True, help_text="sigma; null for Elo.")
    score = serializers.FloatField(help_text="What ranks: the Elo rating, or mu - 3 sigma.")
    url = serializers.CharField(help_text="The competitor's page (a path on this site).")
    anchor = serializers.CharField(
        allow_null=True,
        help_text="A house anchor's slug (random, greedy, search-8, search-32): a bot of known, "
        "fixed strength the service runs itself (the page /anchors/ says what each is); "
        "null for everyone else.",
    )


@functools.cache
def _row_representer() -> Representer:
    """What ``LeaderboardRowSerializer(record).data`` holds, built once
    (``web.api.toolkit.plain_data``)."""
    return representer(LeaderboardRowSerializer)


def _description(what: str) -> str:
    return (
        f"{what}, ranked in `system` (TrueSkill and OpenSkill by the conservative score "
        "mu - 3 sigma, Elo by the rating), of competitors of `kind`, paginated like the "
        "page (50 a page). `format=csv` (or `Accept: text/csv`) answers every row as one CSV, "
        "not paginated: rank, competitor, name, kind, games, provisional, value, sigma, score, "
        "url; text a spreadsheet would run as a formula starts with `'`. A system the ladder "
        "is not rated in is a 400 on `system`."
    )


FORMAT = OpenApiParameter(
    "format",
    str,
    enum=["json", "csv"],
    description="json (the default, paginated) or csv (every row).",
)
RESPONSES = {
    (200, "application/json"): LeaderboardRowSerializer(many=True),
    (200, "text/csv"): OpenApiTypes.STR,
    404: NOT_FOUND,
}


class _LeaderboardView(GenericAPIView):
    """A board as JSON pages or one CSV; subclasses find the scope and name the file."""

    permission_classes = [AllowAny]
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]
    serializer_class = LeaderboardRowSerializer

    def answer(self, request: Request, scope: RatingScope | None, filename: str) -> Any:
        query = LeaderboardQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        ladder = query.ladder(scope)
        if request.accepted_renderer.format == "csv":
            self.paginator.check_query(request)
            response = StreamingHttpResponse(
                leaderboard_export.csv_lines(scope, ladder), content_type="text/csv; charset=utf-8"
            )
            suffix = "" if ladder.kind == "all" else f"-{ladder.kind}"
            response["Content-Disposition"] = (
                f'attachment; filename="{filename}-{ladder.system}{suffix}-leaderboard.csv"'
            )
            return response
        page = self.paginate_queryset(leaderboards.pageable(scope, ladder))
        write = _row_representer()  # the serializer's data, without DRF's per-row machinery
        return self.get_paginated_response([write(leaderboard_export.record(row)) for row in page])

    def handle_exception(self, exc: Exception) -> Response:
        """An error is JSON (``{detail, code}`` or field errors), also when CSV was asked."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = renderers.JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return response


class EngineLeaderboardView(_LeaderboardView):
    @extend_schema(
        operation_id="leaderboards_retrieve",
        summary="An engine's global leaderboard, as JSON pages or one CSV",
        description=_description("The engine's global ladder (every rated game of it)"),
        parameters=[
            OpenApiParameter(
                "engine",
                str,
                OpenApiParameter.PATH,
                enum=engine_slugs(),
                description="The engine's slug.",
            ),
            LeaderboardQuery,
            FORMAT,
        ],
        responses=RESPONSES,
        auth=[],
    )
    def get(self, request: Request, engine: str) -> Any:
        if engine not in engine_slugs():
            raise exceptions.NotFound(f"no engine called {engine!r}")
        return self.answer(request, ratings_selectors.global_ladder(engine), engine)


class LeagueLeaderboardView(_LeaderboardView):
    @extend_schema(
        operation_id="leagues_leaderboard_retrieve",
        summary="A league's leaderboard, as JSON pages or one CSV",
        description=_description(
            "The league's own ladder (rated games of its tournaments and arena)"
        ),
        parameters=[
            OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The league's slug."),
            LeaderboardQuery,
            FORMAT,
        ],
        responses=RESPONSES,
        auth=[],
    )
    def get(self, request: Request, slug: str) -> Any:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise exceptions.NotFound(f"no league called {slug!r}")
        return self.answer(request, event_listings.league_scope(league), league.slug)


# An anonymous caller's JSON pages are kept by Django's cache_page (web.cache.exports).
urlpatterns = [
    path(
        "leaderboards/<str:engine>/",
        exports.anonymous_cache_page(lambda engine: [invalidation.ladder(engine)])(
            EngineLeaderboardView.as_view()
        ),
        name="leaderboard",
    ),
    path(
        "leagues/<slug:slug>/leaderboard/",
        exports.anonymous_cache_page(lambda slug: [invalidation.RESULTS, invalidation.EVENTS])(
            LeagueLeaderboardView.as_view()
        ),
        name="league-leaderboard",
    ),
]
