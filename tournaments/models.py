"""Who plays, what is played, and every move of it.

The move log is the truth of a game: the state is always
``engines.replay(engine, num_players, options, moves)``; the seed only decides,
through ``engines.Dealer``, which chance outcomes get logged. ``Move`` is unique
on ``(game, ply)``, so a duplicate submission or a raced worker fails at the
database instead of forking the game.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

import engines


def engine_choices() -> list[tuple[str, str]]:
    """Every registered engine as a (slug, name) choice, read from the registry when asked.

    A callable, so the forms and validation of ``League.engine`` and
    ``Tournament.engine`` follow the registry without a migration per engine.
    """
    return [(engine.slug, engine.name) for engine in engines.all_engines()]


class Competitor(models.Model):
    """Anything that holds a seat and a rating: a bot or a person."""

    class Kind(models.TextChoices):
        BOT = "bot", "bot"
        PERSON = "person", "person"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="competitors",
        help_text="The person playing, or the owner of the bot.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"


class League(models.Model):
    """A club or ladder with its own ratings for one engine."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    engine = models.CharField(
        max_length=30, choices=engine_choices, help_text="The engine its games are played with."
    )
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """An organised event: rounds of games made by a format."""

    name = models.CharField(max_length=100)
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    engine = models.CharField(max_length=30, choices=engine_choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A league's tournament plays the league's engine: its games are rated there."""
        if self.league_id is not None and self.engine and self.league.engine != self.engine:
            raise ValidationError(
                {
                    "engine": f"the league {self.league} plays {self.league.engine}; "
                    "its tournaments play the same engine"
                }
            )


class Game(models.Model):
    """One game: engine, options, seed and its seats; the moves say the rest."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "scheduled"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        ABORTED = "aborted", "aborted"

    class Purpose(models.TextChoices):
        """Why the game was made; the house bots count their capacity per purpose."""

        CASUAL = "casual", "made by a user, the demo or a local test"
        EVENT = "event", "paired by an organiser's event (a tournament, the arena)"

    class UnratedReason(models.TextChoices):
        """Why an unrated game is unrated (``tournaments.rating_rules``); blank when rated."""

        SAME_OWNER = "same_owner", "one owner holds several seats"
        CHALLENGE = "challenge", "a challenge"
        CHOSEN_SEED = "chosen_seed", "chosen seed"
        CREATOR = "creator", "its creator chose so"

    engine = models.CharField(max_length=30)
    engine_version = models.CharField(max_length=20)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    seed = models.CharField(max_length=100, help_text="Secret until the game is finished.")
    seed_commitment = models.CharField(max_length=64, help_text="sha256(seed), public.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    rated = models.BooleanField(default=True)
    unrated_reason = models.CharField(
        max_length=20,
        choices=UnratedReason.choices,
        blank=True,
        help_text="Why the game is unrated; blank when it is rated (and for games recorded "
        "before reasons were kept).",
    )
    purpose = models.CharField(max_length=10, choices=Purpose.choices, default=Purpose.CASUAL)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
        help_text="The user who asked for the game (challengers' share of an open bot); "
        "empty for games the service made (demo, events, local tests).",
    )
    listed = models.BooleanField(
        default=True,
        help_text="Shown in public lists (home page, the API's game list, leaderboard pages). "
        "Off for local test games (manage.py play); their own page stays reachable by id.",
    )
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    round_number = models.PositiveIntegerField(null=True, blank=True)
    move_time_ms = models.PositiveIntegerField(default=5000)
    time_bank_ms = models.PositiveIntegerField(default=0)
    next_ply = models.PositiveIntegerField(default=0, help_text="Number of moves logged.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "last_progress_at"])]

    def __str__(self) -> str:
        return f"{self.engine} game {self.pk}"


class Seat(models.Model):
    """A competitor's place at a game's table."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    competitor = models.ForeignKey(Competitor, on_delete=models.PROTECT, related_name="seats")
    forfeited = models.BooleanField(default=False)
    fault_count = models.PositiveIntegerField(default=0)
    events_sent = models.PositiveIntegerField(
        default=0, help_text="Public events already sent to this seat's bot."
    )
    bank_left_ms = models.PositiveIntegerField(
        default=0,
        help_text="Unused time bank: starts at the game's time_bank_ms; time a decision "
        "takes beyond move_time_ms is taken from it.",
    )

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of game {self.game_id}"


class Move(models.Model):
    """One action of the log: a player's, a default after a fault, or chance's."""

    class Source(models.TextChoices):
        BOT = "bot", "bot"
        PERSON = "person", "person"
        CHANCE = "chance", "chance"
        DEFAULT = "default", "default after a fault"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.SmallIntegerField(help_text="-1 is chance.")
    action = models.JSONField()
    source = models.CharField(max_length=10, choices=Source.choices)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    fault_kind = models.CharField(max_length=30, blank=True)
    fault_detail = models.TextField(blank=True)
    request_excerpt = models.TextField(blank=True, help_text="For the bot's owner only.")
    reply_excerpt = models.TextField(blank=True, help_text="For the bot's owner only.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="unique_move_ply"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} ply {self.ply}"


class Outcome(models.Model):
    """The final result of a finished game, in seat order."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="outcome")
    scores = models.JSONField()
    ranks = models.JSONField(help_text="1 = best; ties share a rank; forfeits rank last.")
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"outcome of game {self.game_id}"
