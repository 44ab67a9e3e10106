"""Payloads of the pull API: the turns a bot fetches and the move it posts.

A turn is exactly a push ``act`` request (``docs/bot-protocol.md``,
``botapi/schemas/act-request.schema.json``); these serializers describe it
for the OpenAPI schema and check the move a bot posts.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from botapi.services.pull import MAX_WAIT_SECONDS
from web.api.bots.serializers import QuerySerializer
from web.api.toolkit.fields import BoundedDictField, StrictIntegerField

MAX_PLY = 2**31 - 1
"""The largest ply the database stores."""
MAX_ACTION_KEYS = 32
"""More keys than any engine's action has; a bigger object is refused before it is compared."""


class TurnsQuerySerializer(QuerySerializer):
    wait = serializers.FloatField(
        required=False,
        default=0,
        min_value=0,
        max_value=MAX_WAIT_SECONDS,
        help_text=(
            f"Seconds to wait for a turn when none is pending (0 to {MAX_WAIT_SECONDS}; "
            "default 0: answer at once). The answer comes as soon as a turn is pending."
        ),
    )


class GameInfoSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The game's id; POST the move to games/{id}/moves.")
    engine = serializers.CharField()
    engine_version = serializers.CharField()
    num_players = serializers.IntegerField()
    options = serializers.DictField(child=serializers.JSONField())
    seat = serializers.IntegerField(help_text="Your seat, 0-based.")


class TurnSerializer(serializers.Serializer):
    """One pending decision: the same ``act`` request a push bot is sent."""

    protocol = serializers.IntegerField(help_text="Always 1.")
    kind = serializers.ChoiceField(choices=["act"])
    request_id = serializers.CharField(help_text="Echo it in the move (optional there).")
    game = GameInfoSerializer()
    ply = serializers.IntegerField(help_text="Send it back with the move.")
    deadline_ms = serializers.IntegerField(
        help_text="Milliseconds left for this decision, counted from this answer."
    )
    time_bank_ms = serializers.IntegerField(
        required=False, help_text="Unused time bank of the seat, already in deadline_ms."
    )
    view = serializers.DictField(child=serializers.JSONField())
    legal_actions = serializers.ListField(
        child=serializers.DictField(child=serializers.JSONField())
    )
    default_action_index = serializers.IntegerField(
        required=False,
        help_text="Index in legal_actions of what the referee plays for you if you do not "
        "answer in time (the engine's safe default).",
    )
    events = serializers.ListField(
        child=serializers.DictField(child=serializers.JSONField()),
        help_text="Public events this seat has not been sent before.",
    )


class MoveRequestSerializer(serializers.Serializer):
    """A move for a pulled turn: ``ply`` and exactly one of ``action`` / ``action_index``.

    Unknown fields are ignored, as in a push reply.
    """

    exclusive_fields = ("action", "action_index")  # the schema says: exactly one

    ply = StrictIntegerField(min_value=0, max_value=MAX_PLY, help_text="The turn's ply.")
    action = BoundedDictField(
        max_items=MAX_ACTION_KEYS,
        child=serializers.JSONField(),
        required=False,
        help_text="One of the turn's legal_actions, unchanged.",
    )
    action_index = StrictIntegerField(
        min_value=0, required=False, help_text="0-based index into the turn's legal_actions."
    )
    request_id = serializers.CharField(
        required=False, max_length=200, help_text="The turn's request_id (checked if given)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        has_action, has_index = "action" in attrs, "action_index" in attrs
        if has_action == has_index:
            message = 'give exactly one of "action" or "action_index"'
            raise serializers.ValidationError({"action": [message], "action_index": [message]})
        if has_action and not isinstance(attrs["action"].get("type"), str):
            raise serializers.ValidationError({"action": ['an action has a string "type"']})
        return attrs


class MoveSerializer(serializers.Serializer):
    """The move as recorded by the referee."""

    game = serializers.IntegerField()
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.DictField(child=serializers.JSONField())
    source = serializers.CharField()
    latency_ms = serializers.IntegerField(
        help_text="Milliseconds from the previous move (when the turn began) to this one."
    )
