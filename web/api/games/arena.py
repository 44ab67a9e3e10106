"""A league's arena in the REST API: an owner puts their bots in and takes them out.

Thin: the rules are ``tournaments.arena.join`` / ``leave``. Authentication
as for the bot endpoints (``Authorization: Token …``, or the session), and
every bot is looked up among the caller's own: another user's bot answers
404 exactly like a missing one, so nobody learns which bots exist or enters
someone else's.

    GET    /api/v1/leagues/{slug}/arena/            your bots' entries in the league
    POST   /api/v1/leagues/{slug}/arena/            {"bot": id, "share_tables_with_own_bots": false}
    DELETE /api/v1/leagues/{slug}/arena/{bot_id}/   take the bot out
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from botapi.models import Bot
from tournaments import arena
from tournaments.models import ArenaEntry, League
from web.api.bots.serializers import RefuseUnknownFieldsMixin
from web.api.toolkit.errors import Conflict

MAX_ID = 2**31 - 1

NOT_FOUND = OpenApiResponse(
    description="No such league, or no such bot among yours (`not_found`); on DELETE also a "
    "bot that is not in the arena."
)
REFUSED = OpenApiResponse(
    description="The arena is closed (`arena_closed`), or the bot may not play in it "
    "(`not_eligible`: suspended or disabled, does not play the league's engine, or the "
    "league is for people only); `detail` says which."
)


class ArenaEntrySerializer(serializers.ModelSerializer):
    """One of your bots in a league's arena."""

    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    bot = serializers.IntegerField(source="competitor.bot.pk", read_only=True)
    name = serializers.CharField(source="competitor.name", read_only=True, help_text="owner/bot")
    waiting_since = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="Since when it waits for a table; null while it plays an arena game.",
    )

    class Meta:
        model = ArenaEntry
        fields = [
            "league",
            "bot",
            "name",
            "active",
            "share_tables_with_own_bots",
            "waiting_since",
            "games_played",
        ]
        read_only_fields = fields


class ArenaJoinSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    bot = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="One of your bots.")
    share_tables_with_own_bots = serializers.BooleanField(
        default=False,
        help_text="May sit at a table with your other bots in this arena (only if each of "
        "them allows it too); such games are still rated.",
    )


def _league(slug: str) -> League:
    return get_object_or_404(League, slug=slug)


def _own_bot(request: Request, bot_id: int) -> Bot:
    bot = Bot.objects.filter(owner=request.user, pk=bot_id).select_related("competitor").first()
    if bot is None:
        raise exceptions.NotFound(f"no bot {bot_id} among yours")
    return bot


class ArenaView(APIView):
    """Your bots in one league's arena."""

    @extend_schema(
        summary="Your bots in a league's arena",
        description="Every entry of your bots in this league's arena, including those that left.",
        responses={200: ArenaEntrySerializer(many=True), 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        entries = (
            ArenaEntry.objects.filter(league=_league(slug), competitor__bot__owner=request.user)
            .select_related("league", "competitor__bot")
            .order_by("id")
        )
        return Response(ArenaEntrySerializer(entries, many=True).data)

    @extend_schema(
        summary="Put your bot in a league's arena",
        description=(
            "The arena seats its free bots at games every few seconds, opponents close in the "
            "league's rating; games are rated in the league and the engine's ladder when the "
            "league says so. Your bot must be active and play the league's engine; it plays "
            "one arena game at a time, and never more games at once than its "
            "`max_concurrent_games`, counting all its games. 201 when it enters (or comes "
            "back), 200 when it was in already (`share_tables_with_own_bots` is updated)."
        ),
        request=ArenaJoinSerializer,
        responses={200: ArenaEntrySerializer, 201: ArenaEntrySerializer, 404: NOT_FOUND,
                   409: REFUSED},
    )  # fmt: skip
    def post(self, request: Request, slug: str) -> Response:
        body = ArenaJoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        league = _league(slug)
        bot = _own_bot(request, body.validated_data["bot"])
        was_in = ArenaEntry.objects.filter(
            league=league, competitor=bot.competitor, active=True
        ).exists()
        try:
            entry = arena.join(
                league,
                bot.competitor,
                by=request.user,
                share_tables_with_own_bots=body.validated_data["share_tables_with_own_bots"],
            )
        except arena.ArenaRefused as exc:
            raise Conflict(str(exc), exc.code) from None
        return Response(
            ArenaEntrySerializer(entry).data,
            status=status.HTTP_200_OK if was_in else status.HTTP_201_CREATED,
        )


class ArenaBotView(APIView):
    """One of your bots in a league's arena."""

    @extend_schema(
        summary="Take your bot out of a league's arena",
        description="It is no longer seated; games it is playing play on to the end.",
        responses={204: None, 404: NOT_FOUND},
    )
    def delete(self, request: Request, slug: str, bot_id: int) -> Response:
        league = _league(slug)
        bot = _own_bot(request, bot_id)
        entry = ArenaEntry.objects.filter(league=league, competitor=bot.competitor, active=True)
        entry = entry.first()
        if entry is None:
            raise exceptions.NotFound(f"{bot.competitor.name} is not in the arena of {league}")
        arena.leave(entry)
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("leagues/<slug:slug>/arena/", ArenaView.as_view(), name="league-arena"),
    path(
        "leagues/<slug:slug>/arena/<int:bot_id>/", ArenaBotView.as_view(), name="league-arena-bot"
    ),
]
