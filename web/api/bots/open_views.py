"""The public listing of bots open to others: how a user finds an opponent to challenge.

Anyone may read it, signed in or not. It holds the bots whose owners chose
``challenge`` or ``tournament`` visibility, and the house (example) bots;
another owner's private bot is never in it, and asking for one by id answers
404 exactly like a missing id. Each entry shows only
:class:`web.api.bots.serializers.OpenBotSerializer`'s public fields. Which bots
are open is decided in ``botapi.seating``, the same place that decides
who may seat them.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import filters, mixins, viewsets
from rest_framework.permissions import AllowAny

from botapi import seating
from botapi.models import Bot
from web.api.bots import serializers as s

NOT_FOUND = OpenApiResponse(description="No such bot among the open ones.")


def playing(bots: QuerySet[Bot], engine: str) -> QuerySet[Bot]:
    """``bots`` that declare ``engine`` (a JSON list), filtered in the database."""
    if connection.features.supports_json_field_contains:
        return bots.filter(engines__contains=[engine])
    # SQLite has no JSON containment; the stored text holds each slug in quotes.
    return bots.filter(engines__icontains=f'"{engine}"')


@extend_schema_view(
    list=extend_schema(
        summary="Bots open to challenges or tournaments, and the example bots",
        description=(
            "Public: anyone may read it. Bots whose `challengeable` is true can be seated by any "
            "user in POST /api/v1/games/ (a game seating another owner's bot is an unrated "
            "challenge); `tournament` bots play only in tournaments and the arena. Private bots "
            "are never listed."
        ),
        parameters=[s.OpenBotFilterSerializer],
        auth=[],
    ),
    retrieve=extend_schema(
        summary="One open bot",
        description="A private or missing bot is 404 alike.",
        responses={200: s.OpenBotSerializer, 404: NOT_FOUND},
        auth=[],
    ),
)
class OpenBotViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Read-only, public: no field an owner keeps to themselves."""

    serializer_class = s.OpenBotSerializer
    permission_classes = [AllowAny]
    filter_backends = [filters.SearchFilter, filters.OrderingFilter]
    search_fields = ["name", "owner__username"]
    ordering_fields = ["name", "created_at"]
    ordering = ["name", "id"]
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> QuerySet[Bot]:
        return seating.open_bots()

    def filter_queryset(self, queryset: QuerySet[Bot]) -> QuerySet[Bot]:
        queryset = super().filter_queryset(queryset)
        if self.action != "list":
            return queryset
        query = s.OpenBotFilterSerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        params: dict[str, Any] = query.validated_data
        if "engine" in params:
            queryset = playing(queryset, params["engine"])
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        if "owner" in params:
            queryset = queryset.filter(owner__username=params["owner"])
        if params.get("challengeable") is not None:
            wanted = seating.challengeable()
            queryset = queryset.filter(wanted if params["challengeable"] else ~wanted)
        return queryset
