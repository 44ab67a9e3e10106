"""What the tournaments API reads and writes.

The answers render what :mod:`tournaments.selectors.listings` and
:mod:`tournaments.selectors.standings_table` gathered (the rules of what may be shown
live there); the event seed only through ``events.event_seed_revealed``, so
it is null while the event is on. The one body, an entry, refuses unknown
fields by name like every other body of the API.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Competitor, Game
from tournaments import events
from tournaments.formats import tiebreaks
from tournaments.models import Entrant, Round, Tournament
from tournaments.selectors import listings as event_listings
from web.api.bots.serializers import RefuseUnknownFieldsMixin
from web.api.games.serializers import MAX_ID
from web.api.toolkit.fields import POSITION_HELP


class LeagueBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()


class EntrantSerializer(serializers.Serializer):
    """An entrant: its competitor's name, seed order and status (with the reason if it left)."""

    id = serializers.IntegerField(help_text="The entrant's id in this tournament.")
    competitor_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competitor.Kind.choices)
    seed_order = serializers.IntegerField(help_text="1 is the top seed.")
    status = serializers.ChoiceField(choices=Entrant.Status.choices)
    reason = serializers.CharField(help_text="Why it was withdrawn or disqualified; else empty.")


class TournamentSerializer(serializers.Serializer):
    """A tournament as anyone may see it: settings, status, and the event seed once revealed."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField(allow_null=True)
    engine = serializers.CharField()
    options = serializers.DictField(help_text="Engine options every game is played with.")
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    duplicate = serializers.BooleanField(
        help_text="Every table plays its deal once per seat rotation; results add up the set."
    )
    table_size = serializers.IntegerField()
    min_table_size = serializers.IntegerField(
        help_text="Smallest table allowed when the entrants do not divide evenly."
    )
    rounds = serializers.IntegerField(
        allow_null=True, help_text="Rounds set by the organiser; null lets the format decide."
    )
    total_rounds = serializers.SerializerMethodField(
        help_text="Rounds the event will have, where known (the organiser's or the format's)."
    )
    current_round = serializers.IntegerField(help_text="0 before round 1.")
    bye_points = serializers.FloatField(allow_null=True)
    advance_per_table = serializers.IntegerField(
        help_text="Knockout: how many of each table go on."
    )
    move_time_ms = serializers.IntegerField()
    time_bank_ms = serializers.IntegerField()
    rated = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    status_reason = serializers.CharField(
        help_text="Why it is paused, cancelled or held up; else empty."
    )
    league = LeagueBriefSerializer(allow_null=True)
    entrant_count = serializers.IntegerField(
        help_text="Entrants in (active, withdrawn or disqualified)."
    )
    seed_commitment = serializers.CharField(
        help_text="sha256 of the event seed, published before round 1 (empty before it is drawn)."
    )
    seed = serializers.SerializerMethodField(
        help_text="The event seed: null while the event is on, revealed when it ends. Every "
        "game's seed is derived from it."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_total_rounds(self, tournament: Tournament) -> int | None:
        return event_listings.total_rounds(tournament, tournament.entrant_count)

    @extend_schema_field({"type": "string", "nullable": True})
    def get_seed(self, tournament: Tournament) -> str | None:
        return events.event_seed_revealed(tournament)


class TournamentDetailSerializer(TournamentSerializer):
    """One tournament: the list's fields, the organiser's rules of play, and its entrants."""

    tie_breaks = serializers.SerializerMethodField(
        help_text="Tie-breaks after points, in the order they apply (names from "
        "docs/formats.md); the default order when the organiser chose none."
    )
    check_in = serializers.BooleanField(
        read_only=True, help_text="Entrants must check in before the start."
    )
    seeding = serializers.ChoiceField(
        choices=Tournament.Seeding.choices,
        read_only=True,
        help_text="How entrants not seeded by hand are ordered at the start.",
    )
    allow_same_owner_tables = serializers.BooleanField(
        read_only=True, help_text="Whether two entrants of one owner may share a table."
    )
    review_rounds = serializers.BooleanField(
        read_only=True,
        help_text="Each round's tables are proposed and start only when the organiser "
        "releases them.",
    )
    absence_grace_s = serializers.IntegerField(
        read_only=True,
        help_text="Seconds the next round waits for an entrant who cannot play before "
        "pairing without it.",
    )
    entrants = serializers.SerializerMethodField(help_text="In seed order.")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_tie_breaks(self, tournament: Tournament) -> list[str]:
        return list(tiebreaks.check(tournament.tie_breaks or ()))

    @extend_schema_field(EntrantSerializer(many=True))
    def get_entrants(self, tournament: Tournament) -> list[dict[str, Any]]:
        return EntrantSerializer(event_listings.entrants_of(tournament), many=True).data


class EntrantBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The entrant's id.")
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Entrant.Status.choices)


class TableGameSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The game (GET /api/v1/games/{id}/).")
    status = serializers.ChoiceField(choices=Game.Status.choices)


class TableSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text=POSITION_HELP)
    entrant = EntrantBriefSerializer()
    rank = serializers.IntegerField(allow_null=True, help_text="Null until the table finishes.")
    score = serializers.FloatField(
        allow_null=True, help_text="Game score (a duplicate set: summed)."
    )
    points = serializers.FloatField(allow_null=True, help_text="Placement points from this table.")


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=Game.Status.choices,
        help_text="A table's state, in a game's words: finished once every game of the table "
        "has (its result is in); running while a game is; aborted if a game was; scheduled "
        "before.",
    )
    seats = TableSeatSerializer(many=True, help_text="In seat order.")
    games = TableGameSerializer(many=True, help_text="One game, or a duplicate set.")


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    tables = TableSerializer(many=True)
    byes = EntrantBriefSerializer(many=True, help_text="Entrants sitting this round out.")


class StandingSerializer(serializers.Serializer):
    """One line of the standings; ties share a rank."""

    rank = serializers.IntegerField()
    entrant = EntrantBriefSerializer()
    points = serializers.FloatField(help_text="Placement points (tables and byes).")
    tablemates_points = serializers.FloatField(
        help_text="Tie-break 1: the sum of the points of everyone sat with, once per meeting."
    )
    game_score = serializers.FloatField(help_text="Tie-break 2: the total of the game scores.")
    head_to_head = serializers.FloatField(
        help_text="Tie-break 3: among the entrants still tied, 1 per table placed above one, "
        "1/2 for a shared place."
    )
    tables = serializers.IntegerField(help_text="Tables played.")
    byes = serializers.IntegerField()
    placings = serializers.ListField(
        child=serializers.IntegerField(), help_text="Tables finished 1st, 2nd, ..."
    )


class MeetingSerializer(serializers.Serializer):
    opponent_id = serializers.IntegerField(help_text="The opponent's entrant id.")
    meetings = serializers.IntegerField(help_text="Tables shared.")
    above = serializers.IntegerField(help_text="Tables where the row's entrant placed above.")
    below = serializers.IntegerField()
    level = serializers.IntegerField(help_text="Tables where they shared a place.")
    score_difference = serializers.FloatField(help_text="Sum of (own score - opponent's score).")


class CrosstableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = EntrantBriefSerializer()
    meetings = serializers.SerializerMethodField(help_text="Only the opponents it met.")

    @extend_schema_field(MeetingSerializer(many=True))
    def get_meetings(self, row: Any) -> list[dict[str, Any]]:
        return MeetingSerializer([cell for cell in row.cells if cell is not None], many=True).data


class CrosstableSerializer(serializers.Serializer):
    entrants = EntrantBriefSerializer(many=True, source="columns", help_text="In standings order.")
    rows = CrosstableRowSerializer(many=True, help_text="In standings order.")


class EntryRequestSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    """Enter one of your bots, or yourself: exactly one of ``bot`` and ``person``."""

    bot = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="Id of one of your bots; it must play the tournament's engine.",
    )
    person = serializers.CharField(
        required=False,
        max_length=150,
        help_text="Your own username: a person enters only themselves. In a rated event where "
        "bots may play, your account must accept bot opponents in rated games (your profile "
        "page, /me/).",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("bot" in data) == ("person" in data):
            raise serializers.ValidationError(
                {"non_field_errors": ["send one of bot (your bot's id) or person (your username)"]}
            )
        return data


class CheckInRequestSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    """Check in one of your bots, or yourself (a person) with no ``bot``."""

    bot = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="Id of one of your entered bots; leave it out to check yourself in.",
    )
