"""What the bot API reads and writes, and the input checks behind its 400 answers.

Every 400 names the field and the problem. Besides DRF's own field checks:
a field the client may not write (``status``, ``signing_secret``...) is
refused by name instead of being silently ignored, an endpoint is checked by
the SSRF guard, and a push bot must have an endpoint.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from botapi.models import MAX_CONCURRENT_GAMES_LIMIT, Bot, engine_slugs
from botapi.selectors import seating, versions
from botapi.services import bots as services
from botapi.ssrf import EndpointRefused
from games.models import Game, Move
from web.api.bots import visibility
from web.api.toolkit.fields import POSITION_HELP

READ_ONLY_HINTS = {
    "status": "change it with POST .../suspend/ or .../reactivate/",
    "status_reason": "it is set with the status",
    "signing_secret": "get a new one with POST .../rotate-secret/",
    "pull_token": "get a new one with POST .../rotate-pull-token/",
    "previous_version": "it is set at registration: register a new bot (POST /api/v1/bots/) "
    "naming this one as its previous_version to make a new version",
}
MAX_ID = 2**63 - 1
"""Bot ids are 64-bit; a larger number is refused by the field rather than by the database."""


class RefuseUnknownFieldsMixin:
    """Answer 400 for request fields the serializer would otherwise ignore."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            errors = {}
            for name in sorted(set(data) - writable):
                hint = READ_ONLY_HINTS.get(name)
                if name in self.fields or hint:
                    errors[name] = [f"this field is read-only; {hint or 'it cannot be set here'}"]
                else:
                    errors[name] = ["unknown field"]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class VisibilityField(serializers.ChoiceField):
    """Who besides its owner may seat the bot; a bad value is refused naming the choices."""

    def __init__(self, **kwargs: Any) -> None:
        choices = ", ".join(Bot.Visibility.values)
        kwargs.setdefault(
            "help_text",
            "Who besides you may seat this bot: private (nobody; the default), challenge "
            "(anyone, in unrated challenges, and tournaments and the arena), tournament "
            "(tournaments and the arena only).",
        )
        kwargs.setdefault(
            "error_messages",
            {"invalid_choice": f'"{{input}}" is not a visibility; choose one of: {choices}.'},
        )
        super().__init__(choices=Bot.Visibility.choices, **kwargs)


class QuerySerializer(serializers.Serializer):
    """Query parameters. One given empty (``?status=``) is refused by name, not ignored.

    DRF treats an empty query value of an optional field as absent; the
    schema promises an enum, a number or a boolean, and ``''`` is none of them.
    """

    def to_internal_value(self, data: Any) -> Any:
        getlist = getattr(data, "getlist", None)
        if getlist is not None:
            empty = {
                name: ["may not be empty: give a value or leave the parameter out"]
                for name in self.fields
                if "" in getlist(name)
            }
            if empty:
                raise serializers.ValidationError(empty)
        return super().to_internal_value(data)


class BotHealthSerializer(serializers.ModelSerializer):
    class Meta:
        model = Bot
        fields = [
            "last_ping_at",
            "last_ping_ok",
            "last_ping_detail",
            "last_ping_latency_ms",
            "consecutive_faulty_games",
        ]
        read_only_fields = fields


class BotSerializer(RefuseUnknownFieldsMixin, serializers.ModelSerializer):
    """A bot as its owner sees it; never its signing secret or pull token."""

    engines = serializers.ListField(
        child=serializers.ChoiceField(choices=engine_slugs()),
        allow_empty=False,
        max_length=len(engine_slugs()),  # each at most once
        help_text="Engine slugs this bot plays.",
    )
    endpoint_url = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        help_text="Where the referee POSTs requests (push mode). Must reach a public address.",
    )
    max_concurrent_games = serializers.IntegerField(
        min_value=1, max_value=MAX_CONCURRENT_GAMES_LIMIT, required=False
    )
    visibility = VisibilityField(required=False)
    alert_webhook_url = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        help_text="Optional: where the first fault of each game and every automatic "
        "suspension are POSTed as JSON signed with the bot's secret (docs: bot protocol, "
        '"Alerts"). The same address rules as endpoint_url; empty for none.',
    )
    previous_version = serializers.IntegerField(
        source="previous_version_id",
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="The id of your bot this one is a new version of (registration only). "
        "It must play at least one of that bot's engines and have no newer version yet.",
    )
    health = BotHealthSerializer(source="*", read_only=True)
    has_pull_token = serializers.BooleanField(read_only=True)

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "description",
            "engines",
            "mode",
            "endpoint_url",
            "max_concurrent_games",
            "visibility",
            "alert_webhook_url",
            "previous_version",
            "status",
            "status_reason",
            "status_changed_at",
            "competitor",
            "has_pull_token",
            "pull_token_hint",
            "health",
            "created_at",
            "updated_at",
        ]
        read_only_fields = [
            "id",
            "status",
            "status_reason",
            "status_changed_at",
            "competitor",
            "pull_token_hint",
            "created_at",
            "updated_at",
        ]
        # Uniqueness per owner is checked in validate_name (the owner is not a field).
        validators: list[Any] = []

    def validate_name(self, value: str) -> str:
        owner = self.context["request"].user
        clash = Bot.objects.filter(owner=owner, name=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError(f"you already have a bot named {value!r}")
        return value

    def validate_engines(self, value: list[str]) -> list[str]:
        repeated = sorted({slug for slug in value if value.count(slug) > 1})
        if repeated:
            raise serializers.ValidationError(f"listed more than once: {', '.join(repeated)}")
        return sorted(value)

    def validate_endpoint_url(self, value: str) -> str:
        value = value.strip()
        if not value:
            return ""
        try:
            return services.check_endpoint_url(value)
        except EndpointRefused as refused:
            raise serializers.ValidationError(str(refused), code=refused.reason) from None

    def validate_alert_webhook_url(self, value: str) -> str:
        """The SSRF guard of endpoints: the server POSTs to this URL too."""
        return self.validate_endpoint_url(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "previous_version_id" in attrs:
            previous_id = attrs.pop("previous_version_id")
            if previous_id is not None:
                engines = attrs.get("engines", [])
                try:
                    attrs["previous_version"] = versions.check_previous_version(
                        self.context["request"].user, previous_id, engines
                    )
                except versions.VersionRefused as refused:
                    raise serializers.ValidationError(
                        {"previous_version": [str(refused)]}, code="invalid"
                    ) from None
        instance = self.instance
        mode = attrs.get("mode", instance.mode if instance else Bot.Mode.PUSH)
        endpoint = attrs.get("endpoint_url", instance.endpoint_url if instance else "")
        if mode == Bot.Mode.PUSH and not endpoint:
            raise serializers.ValidationError(
                {
                    "endpoint_url": [
                        "a push bot needs an endpoint URL the referee can POST to "
                        "(or register it with mode 'pull')"
                    ]
                },
                code="required",
            )
        return attrs


class BotUpdateSerializer(BotSerializer):
    """A bot as PATCH changes it: everything but ``previous_version``, fixed at registration."""

    previous_version = serializers.IntegerField(
        source="previous_version_id",
        read_only=True,
        allow_null=True,
        help_text="The id of the bot this one is a new version of; set at registration.",
    )


class BotCreatedSerializer(BotSerializer):
    """The registration answer: the bot plus credentials shown this once."""

    signing_secret = serializers.CharField(
        read_only=True, help_text="HMAC key for request signatures. Shown only now; store it."
    )
    pull_token = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="Bearer token for pull mode (null in push mode). Shown only now; store it.",
    )

    class Meta(BotSerializer.Meta):
        fields = [*BotSerializer.Meta.fields, "signing_secret", "pull_token"]


class SigningSecretSerializer(serializers.Serializer):
    signing_secret = serializers.CharField(
        read_only=True, help_text="The new HMAC key; the old one no longer works."
    )


class PullTokenSerializer(serializers.Serializer):
    pull_token = serializers.CharField(
        read_only=True, help_text="The new pull token; the old one no longer works."
    )


class PingResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField(read_only=True)
    fault = serializers.CharField(read_only=True, allow_null=True)
    detail = serializers.CharField(read_only=True)
    latency_ms = serializers.FloatField(read_only=True)
    status_code = serializers.IntegerField(read_only=True, allow_null=True)
    reply = serializers.JSONField(read_only=True, allow_null=True)
    health = BotHealthSerializer(read_only=True)


class SuspendSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    reason = serializers.CharField(
        max_length=400, required=False, allow_blank=True, help_text="Shown with the status."
    )


class BotFilterSerializer(QuerySerializer):
    """Query parameters of the bot list."""

    status = serializers.ChoiceField(choices=Bot.Status.choices, required=False)
    mode = serializers.ChoiceField(choices=Bot.Mode.choices, required=False)
    engine = serializers.ChoiceField(
        choices=engine_slugs(), required=False, help_text="Bots that play this engine."
    )


class OpenBotSerializer(serializers.ModelSerializer):
    """A bot as anyone may see it in the open listing: what is needed to pick an opponent.

    Deliberately a short, explicit list: never the endpoint, credentials,
    health, status reason, description or limits, which are the owner's.
    """

    owner = serializers.CharField(source="owner.username", help_text="The owner's username.")
    competitor = serializers.CharField(
        source="competitor.name", help_text="The name on seats and leaderboards (owner/bot)."
    )
    visibility = serializers.SerializerMethodField()
    house = serializers.SerializerMethodField()
    anchor = serializers.SerializerMethodField()
    challengeable = serializers.SerializerMethodField()

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "owner",
            "competitor",
            "engines",
            "visibility",
            "status",
            "house",
            "anchor",
            "challengeable",
        ]
        read_only_fields = fields

    @extend_schema_field(VisibilityField())
    def get_visibility(self, bot: Bot) -> str:
        """A house bot takes challenges whatever is stored, so it is shown as ``challenge``."""
        return Bot.Visibility.CHALLENGE if seating.is_house_bot(bot) else bot.visibility

    @extend_schema_field(
        serializers.BooleanField(help_text="An example bot of the service: anyone may seat it.")
    )
    def get_house(self, bot: Bot) -> bool:
        return seating.is_house_bot(bot)

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="A house anchor's slug (random, greedy, search-8, search-32): of known, "
            "fixed strength, run by the service itself (/anchors/ says what each is); null "
            "for any other bot.",
        )
    )
    def get_anchor(self, bot: Bot) -> str | None:
        return bot.anchor or None

    @extend_schema_field(
        serializers.BooleanField(
            help_text="Whether any user may seat it in a game (POST /api/v1/games/) now: "
            "open to challenges (or a house bot) and active."
        )
    )
    def get_challengeable(self, bot: Bot) -> bool:
        return seating.is_challengeable(bot)


class OpenBotFilterSerializer(QuerySerializer):
    """Query parameters of the open listing."""

    engine = serializers.ChoiceField(
        choices=engine_slugs(), required=False, help_text="Bots that play this engine."
    )
    status = serializers.ChoiceField(choices=Bot.Status.choices, required=False)
    owner = serializers.CharField(required=False, max_length=150, help_text="An owner's username.")
    challengeable = serializers.BooleanField(
        required=False,
        default=None,
        allow_null=True,
        help_text="true: only bots anyone may seat now; false: only the others.",
    )


class GameFilterSerializer(QuerySerializer):
    """Query parameters of a bot's game list."""

    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)
    engine = serializers.ChoiceField(choices=engine_slugs(), required=False)


class MoveFilterSerializer(QuerySerializer):
    """Query parameters of a move log."""

    faulty = serializers.BooleanField(
        required=False,
        default=None,
        allow_null=True,
        help_text="true: only this bot's moves that had a fault.",
    )
    mine = serializers.BooleanField(
        required=False,
        default=None,
        allow_null=True,
        help_text="true: only this bot's own moves.",
    )


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text=POSITION_HELP)
    competitor = serializers.CharField(help_text="Name of the seat's player.")
    this_bot = serializers.BooleanField(help_text="Whether this seat is the bot's.")
    forfeited = serializers.BooleanField(
        allow_null=True, help_text="Known for the bot's own seats, and for all once finished."
    )
    fault_count = serializers.IntegerField(
        allow_null=True, help_text="Faults in this game; the bot's own seats only."
    )


class OutcomeSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.FloatField())
    ranks = serializers.ListField(child=serializers.IntegerField())


class BotGameSerializer(serializers.ModelSerializer):
    """A game the bot sits in; the seed and outcome only once its record is public."""

    seed = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    outcome = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "engine",
            "engine_version",
            "num_players",
            "options",
            "status",
            "rated",
            "league",
            "tournament",
            "round_number",
            "move_time_ms",
            "time_bank_ms",
            "next_ply",
            "seed_commitment",
            "seed",
            "seats",
            "outcome",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_seed(self, game: Game) -> str | None:
        return game.seed if visibility.record_public(game) else None

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: Game) -> list[dict[str, Any]]:
        bot: Bot = self.context["bot"]
        return [visibility.seat_entry(seat, bot, game) for seat in game.seats.all()]

    @extend_schema_field(OutcomeSerializer(allow_null=True))
    def get_outcome(self, game: Game) -> dict[str, Any] | None:
        outcome = getattr(game, "outcome", None)
        if outcome is None or not visibility.record_public(game):
            return None
        return {"scores": outcome.scores, "ranks": outcome.ranks}


class BotMoveSerializer(serializers.Serializer):
    """One move of the log, as much as this bot's owner may see (``visibility.move_entry``)."""

    ply = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="-1 is chance.")
    this_bot = serializers.BooleanField()
    action = serializers.JSONField(
        allow_null=True,
        help_text="Null for other seats' moves while the game is not finished.",
    )
    source = serializers.ChoiceField(
        choices=Move.Source.choices, allow_null=True, help_text="The bot's own moves only."
    )
    latency_ms = serializers.IntegerField(allow_null=True)
    fault_kind = serializers.CharField(allow_null=True)
    fault_detail = serializers.CharField(allow_null=True)
    request_excerpt = serializers.CharField(allow_null=True)
    reply_excerpt = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()

    def to_representation(self, move: Move) -> dict[str, Any]:
        entry = visibility.move_entry(move, self.context["own_seats"], self.context["finished"])
        return super().to_representation(entry)


class TokenRequestSerializer(RefuseUnknownFieldsMixin, serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, write_only=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        read_only=True, help_text='Send as "Authorization: Token <token>".'
    )
