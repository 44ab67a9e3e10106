"""Registered bots: who owns them, how the referee reaches them, and how healthy they are.

A :class:`Bot` is always a :class:`games.models.Competitor` (one to one):
seats, ratings and leaderboards point at the competitor, and the bot adds
what only a program needs -- an endpoint, a signing secret, a pull token,
a status and health. Create and delete bots through :mod:`botapi.services.bots`,
which keeps the two rows together in one transaction.

Secrets:

* ``signing_secret`` is stored as given, because the referee must sign every
  request with it (a hash could not sign). It is shown to the owner once, at
  registration or rotation, and never again: the API has no field that reads
  it and the admin does not display it.
* the pull token is a bearer credential the server only has to *check*, so
  only its SHA-256 is stored (``pull_token_hash``), plus its first characters
  (``pull_token_hint``) so an owner can tell which token is in use.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

import engines

MAX_CONCURRENT_GAMES_LIMIT = 64


def engine_slugs() -> list[str]:
    """The slugs a bot may declare, i.e. every registered engine."""
    return [engine.slug for engine in engines.all_engines()]


def validate_engine_list(value: object) -> None:
    """``engines`` must be a non-empty list of known engine slugs, each once."""
    if not isinstance(value, list) or not value:
        raise ValidationError("give a non-empty list of engine slugs")
    known = engine_slugs()
    for slug in value:
        if slug not in known:
            raise ValidationError(f"unknown engine {slug!r}; known engines: {', '.join(known)}")
    if len(set(value)) != len(value):
        raise ValidationError("each engine may be listed once")


def hash_pull_token(token: str) -> str:
    """The stored form of a pull token (hex SHA-256; tokens are long and random)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Bot(models.Model):
    """A program that plays: an HTTP endpoint (push) or a poller (pull)."""

    class Mode(models.TextChoices):
        PUSH = "push", "push: the referee POSTs to the endpoint"
        PULL = "pull", "pull: the bot long-polls the API with its token"

    class Status(models.TextChoices):
        ACTIVE = "active", "active"
        SUSPENDED = "suspended", "suspended (by its owner or after faulty games)"
        DISABLED = "disabled", "disabled by the staff"

    class Visibility(models.TextChoices):
        """Who besides its owner may seat the bot; the owner always may.

        ``challenge`` includes everything ``tournament`` allows: a bot that
        accepts challenges from anyone also plays in tournaments and the arena.
        """

        PRIVATE = "private", "private: only its owner seats it"
        CHALLENGE = "challenge", "open to challenges from anyone, and to tournaments and the arena"
        TOURNAMENT = "tournament", "open to tournaments and the arena only"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    competitor = models.OneToOneField(
        "games.Competitor",
        on_delete=models.CASCADE,
        related_name="bot",
        help_text="The bot's seat-holding, rated identity.",
    )
    name = models.SlugField(
        max_length=50, help_text="Unique among the owner's bots: letters, digits, - and _."
    )
    description = models.CharField(max_length=300, blank=True)
    engines = models.JSONField(
        default=list,
        validators=[validate_engine_list],
        help_text='Engine slugs this bot plays, e.g. ["manila", "batavia"].',
    )
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PUSH)
    endpoint_url = models.CharField(
        max_length=500, blank=True, help_text="Required in push mode; http:// or https://."
    )
    signing_secret = models.CharField(max_length=100, editable=False)
    pull_token_hash = models.CharField(max_length=64, blank=True, editable=False)
    pull_token_hint = models.CharField(max_length=12, blank=True, editable=False)
    visibility = models.CharField(
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.PRIVATE,
        help_text="Who besides its owner may seat it: nobody, anyone (an unrated challenge), "
        "or only tournaments and the arena.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.CharField(max_length=500, blank=True)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    max_concurrent_games = models.PositiveSmallIntegerField(
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_CONCURRENT_GAMES_LIMIT)],
    )
    last_ping_at = models.DateTimeField(null=True, blank=True)
    last_ping_ok = models.BooleanField(null=True, blank=True)
    last_ping_detail = models.CharField(max_length=500, blank=True)
    last_ping_latency_ms = models.PositiveIntegerField(null=True, blank=True)
    consecutive_faulty_games = models.PositiveIntegerField(default=0)
    alert_webhook_url = models.CharField(
        max_length=500,
        blank=True,
        help_text="Optional: where fault and suspension alerts are POSTed, signed with the "
        "bot's secret; the same address rules as endpoints.",
    )
    previous_version = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="next_version",
        help_text="The owner's bot this one is a new version of (set at registration); "
        "each bot has at most one newer version, so the versions form a chain.",
    )
    anchor = models.CharField(
        max_length=16,
        blank=True,
        editable=False,
        help_text="Blank for every bot but the house anchors: the policy the service runs "
        "in-process for this bot (botapi.anchors), a fixed strength to read ratings against.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="unique_bot_name_per_owner"),
            models.UniqueConstraint(
                fields=["pull_token_hash"],
                condition=~models.Q(pull_token_hash=""),
                name="unique_pull_token_hash",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.owner})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_anchor(self) -> bool:
        """A house anchor: the service plays it in-process (no endpoint, no token)."""
        return bool(self.anchor)

    @property
    def has_pull_token(self) -> bool:
        return bool(self.pull_token_hash)

    def pull_token_matches(self, token: str) -> bool:
        """Whether ``token`` is this bot's current pull token (constant-time compare)."""
        if not self.pull_token_hash:
            return False
        return hmac.compare_digest(self.pull_token_hash, hash_pull_token(token))


class BotAlert(models.Model):
    """An alert its owner was sent about the bot: the first fault of a game, or a suspension.

    The row is the "told once" rule: ``key`` is unique per bot (``game:<id>``
    for a game's first fault, ``suspension:<time>`` for a suspension), and an
    alert is sent only by whoever inserts it (``botapi.services.alerts``). It also
    records what became of the mail and the webhook call, for the owner page.
    """

    class Kind(models.TextChoices):
        FAULT = "fault", "first fault in a game"
        SUSPENSION = "suspension", "suspended automatically"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="alerts")
    key = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    ply = models.PositiveIntegerField(null=True, blank=True)
    fault_kind = models.CharField(max_length=30, blank=True)
    detail = models.TextField(blank=True)
    mailed = models.BooleanField(default=False, help_text="Whether the e-mail went out.")
    webhook_result = models.CharField(
        max_length=300, blank=True, help_text="What the webhook answered; blank if none is set."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "key"], name="one_alert_per_bot_and_key"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} alert for bot {self.bot_id} ({self.key})"
