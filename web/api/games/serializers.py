"""What the game API reads and writes; every 400 names the field.

Reading a game goes through :mod:`games.selectors.spectator` (the visibility
rules live there); these serializers only describe its shape for the schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

import engines
from botapi.models import engine_slugs
from botapi.selectors.seating import SeatRefused, seat_bot, seatable_bots_by_id
from games.models import Game
from games.selectors.rating_rules import RatedRefused, decide_rated
from web.api.bots.serializers import QuerySerializer, RefuseUnknownFieldsMixin
from web.api.toolkit.fields import POSITION_HELP, BoundedDictField

MAX_MOVE_TIME_MS = 60_000
MAX_TIME_BANK_MS = 600_000
MAX_ID = 2**63 - 1
"""Ids are 64-bit; a bigger number names no bot (and SQLite cannot even compare it)."""
MAX_SEATS = max(engines.get(slug).max_players for slug in engine_slugs())
"""No engine seats more players: a longer list is refused before any query."""
MAX_OPTIONS = 32
"""More option names than any engine has; a bigger object is refused before the engine reads it."""


class EngineField(serializers.CharField):
    """An engine slug; its own message names the known ones.

    An inline enum in the schema (:class:`EngineFieldSchema`): a choice field
    would be a second component name for the choice set the bot API already
    names (``EnginesEnum``), which drf-spectacular warns about.
    """

    default_error_messages = {"unknown": "unknown engine {value!r}; known engines: {known}"}

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if value not in engine_slugs():
            self.fail("unknown", value=value, known=", ".join(engine_slugs()))
        return value


class EngineFieldSchema(OpenApiSerializerFieldExtension):
    target_class = EngineField

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        return {"type": "string", "enum": engine_slugs()}


class SeatSpecSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    """One seat of a new game, in seat order. Bots only for now; people get seats later."""

    bot = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="Id of one of your bots, of an example bot, or of another owner's bot open "
        "to challenges (GET /api/v1/bots/open/); the last makes the game an unrated challenge.",
    )


class GameCreateSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    """A new game between bots."""

    engine = EngineField(help_text=f"The game to play: {', '.join(engine_slugs())}.")
    options = BoundedDictField(
        max_items=MAX_OPTIONS,
        required=False,
        default=dict,
        help_text="Engine options (see docs/engines/<engine>.md); defaults fill the rest.",
    )
    seats = SeatSpecSerializer(
        many=True,
        max_length=MAX_SEATS,
        help_text="The players in seat order (seat 0 moves first where it matters).",
    )
    rated = serializers.BooleanField(
        required=False,
        help_text="Whether the result changes ratings. Default true, except for a challenge "
        "(a game seating another owner's bot) and for a game where one owner holds several "
        "seats (example bots aside), which are always unrated: left out it is false, and true "
        "is refused.",
    )
    seed = serializers.CharField(
        required=False,
        max_length=100,
        help_text="Chance's seed (random if omitted). A game with a chosen seed cannot be rated.",
    )
    move_time_ms = serializers.IntegerField(
        required=False, default=5000, min_value=100, max_value=MAX_MOVE_TIME_MS
    )
    time_bank_ms = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=MAX_TIME_BANK_MS
    )

    def validate_seats(self, seats: list[dict[str, Any]]) -> list[Any]:
        """Each seat's bot must be seatable by the caller (``botapi.selectors.seating``)."""
        engine = self.initial_data.get("engine") if isinstance(self.initial_data, dict) else None
        if engine not in engine_slugs():
            return seats  # the engine field reports the problem
        user = self.context["request"].user
        found = seatable_bots_by_id(user, [spec["bot"] for spec in seats])
        bots, errors = [], {}
        for index, spec in enumerate(seats):
            try:
                bots.append(seat_bot(user, found.get(spec["bot"]), spec["bot"], engine))
            except SeatRefused as refused:
                errors[index] = {"bot": [str(refused)]}
        if errors:
            raise serializers.ValidationError(errors)
        return bots

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        rules = engines.get(attrs["engine"])
        count = len(attrs["seats"])
        if not rules.min_players <= count <= rules.max_players:
            raise serializers.ValidationError(
                {
                    "seats": [
                        f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
                        f"not {count}"
                    ]
                }
            )
        try:
            attrs["options"] = rules.check_setup(count, attrs.get("options"))
        except engines.InvalidGame as exc:
            raise serializers.ValidationError({"options": [str(exc)]}) from None
        user = self.context["request"].user
        try:
            attrs["rated"] = decide_rated(user, attrs["seats"], attrs.get("rated"))
        except RatedRefused as refused:
            raise serializers.ValidationError({"rated": [str(refused)]}) from None
        if "seed" in attrs and attrs["rated"]:
            raise serializers.ValidationError(
                {
                    "seed": [
                        "a game with a chosen seed cannot be rated (its chance outcomes are "
                        "known in advance); set rated to false or leave the seed out"
                    ]
                }
            )
        return attrs


class PublicSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text=POSITION_HELP)
    competitor_id = serializers.IntegerField()
    competitor = serializers.CharField(help_text="The player's name (owner/bot for a bot).")
    kind = serializers.CharField(help_text="bot or person")
    forfeited = serializers.BooleanField(allow_null=True, help_text="Shown once finished.")
    substituted = serializers.BooleanField(
        help_text="A house bot plays this person's seat for the rest of the game (they timed "
        "out too often or resigned); ranked last as a forfeit. Shown during the game too."
    )
    rank = serializers.IntegerField(allow_null=True, help_text="1 = best; shown once finished.")
    score = serializers.FloatField(allow_null=True, help_text="Shown once finished.")
    rank_note = serializers.CharField(
        allow_null=True,
        help_text="Why the rank is not the score's, in words: 'left the game: ranked last' "
        "for a forfeited seat (resigned, timed out or faulted too often, withdrew).",
    )


class GameOutcomeSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.FloatField())
    ranks = serializers.ListField(
        child=serializers.IntegerField(), help_text="1 = best; forfeited seats last."
    )


class PublicPlySerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="-1 is chance.")
    chance = serializers.BooleanField()
    action = serializers.JSONField(
        allow_null=True, help_text="Null until the game is finished (chance's too)."
    )
    description = serializers.CharField(
        allow_null=True, help_text="The action in words; null until finished."
    )
    events = serializers.ListField(
        child=serializers.DictField(), help_text="The public events this ply produced."
    )
    default = serializers.ChoiceField(
        choices=["timeout", "fault"],
        allow_null=True,
        help_text="Set when the referee played the engine's default action for the seat: "
        "timeout (its clock ran out) or fault (a bad answer, or a seat that left the game).",
    )


class GameSerializer(serializers.Serializer):
    """A game as anyone may see it: no secret while it runs, everything once finished."""

    id = serializers.IntegerField()
    engine = serializers.CharField()
    engine_version = serializers.CharField()
    num_players = serializers.IntegerField()
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    rated = serializers.BooleanField()
    unrated_reason = serializers.ChoiceField(
        choices=Game.UnratedReason.choices,
        allow_null=True,
        help_text="Why the game is unrated: same_owner (one owner holds several seats), "
        "challenge (it seats another owner's bot), chosen_seed (its seed was chosen), creator "
        "(its creator chose so). Null when rated, and for games recorded before reasons were "
        "kept.",
    )
    move_time_ms = serializers.IntegerField()
    time_bank_ms = serializers.IntegerField()
    next_ply = serializers.IntegerField(help_text="Moves logged so far.")
    seed_commitment = serializers.CharField(help_text="sha256(seed), published at creation.")
    seed = serializers.CharField(allow_null=True, help_text="Revealed once the game is finished.")
    seats = PublicSeatSerializer(many=True)
    outcome = GameOutcomeSerializer(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GameDetailSerializer(GameSerializer):
    moves = PublicPlySerializer(many=True, help_text="The public move log, every ply.")


class GameFilterSerializer(QuerySerializer):
    """Query parameters of the game list."""

    engine = EngineField(
        required=False, help_text=f"Only games of this engine: {', '.join(engine_slugs())}."
    )
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)


class VerificationProblemSerializer(serializers.Serializer):
    kind = serializers.CharField(
        help_text="seed_commitment, engine_version, chance_outcome, gap, chance_turn, "
        "wrong_seat, illegal, after_end, move_count, not_over or outcome."
    )
    ply = serializers.IntegerField(allow_null=True)
    detail = serializers.CharField()


class VerificationSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    engine = serializers.CharField()
    ok = serializers.BooleanField(help_text="True when nothing below is wrong.")
    seed = serializers.CharField()
    seed_commitment = serializers.CharField()
    plies = serializers.IntegerField(help_text="Plies replayed.")
    chance_plies = serializers.IntegerField(help_text="Chance outcomes checked against the seed.")
    problems = VerificationProblemSerializer(many=True)


class RecordSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text=POSITION_HELP)
    competitor_id = serializers.IntegerField(help_text="Its page: /competitors/{competitor_id}/.")
    competitor = serializers.CharField(help_text="The player's name (owner/bot for a bot).")
    kind = serializers.CharField(help_text="bot or person")
    forfeited = serializers.BooleanField(
        help_text="The seat forfeited (too many faults, resigned, withdrawn): it ranks last, "
        "tied with other forfeits, and the engine's defaults or a house bot played its moves."
    )
    withdrawn = serializers.BooleanField(
        help_text="Its entrant left the event during the game: forfeited, and rates no one."
    )
    substituted = serializers.BooleanField(
        help_text="A house bot played this person's seat from some point on."
    )
    rank_note = serializers.CharField(
        allow_null=True,
        help_text="Why the rank is not the score's: 'left the game: ranked last' if forfeited.",
    )


class RecordMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="0, 1, 2, ... without a gap.")
    seat = serializers.IntegerField(help_text="-1 is chance.")
    action = serializers.JSONField(help_text="The action exactly as the engine took it.")
    source = serializers.CharField(
        help_text="bot, person, chance, default (a default after a fault or a forfeit) or "
        "house (the house bot of a substituted seat)."
    )
    default = serializers.ChoiceField(
        choices=["timeout", "fault"],
        allow_null=True,
        help_text="Set on a default: timeout (the clock ran out) or fault (any other).",
    )


class GameRecordSerializer(serializers.Serializer):
    """A finished game's full record: ``engines.replay`` rebuilds the game from it."""

    format = serializers.CharField(help_text="harbormaster-game-record/1")
    id = serializers.IntegerField()
    engine = serializers.CharField()
    engine_version = serializers.CharField(
        help_text="The rules version the game was played under (docs/engines/<engine>.md)."
    )
    num_players = serializers.IntegerField()
    options = serializers.DictField(help_text="Every option, defaults filled in.")
    seed = serializers.CharField(help_text="The seed every chance move was drawn from.")
    seed_commitment = serializers.CharField(help_text="sha256(seed), published at creation.")
    rated = serializers.BooleanField()
    unrated_reason = serializers.CharField(
        allow_null=True, help_text="As in the game's record; null when rated."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = RecordSeatSerializer(many=True)
    moves = RecordMoveSerializer(
        many=True,
        help_text="Every move in order, chance's included: engines.replay(engine, num_players, "
        "options, [(m['seat'], m['action']) for m in moves]) rebuilds the final state.",
    )
    outcome = GameOutcomeSerializer(
        help_text="The replay's outcome, with forfeited seats ranked last "
        "(ratings.results.final_ranks)."
    )
