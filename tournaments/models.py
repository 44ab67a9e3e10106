"""Events: leagues, their arenas, tournaments with entrants, rounds and tables.

Who plays and what is played (competitors, games, seats, moves, records)
lives in :mod:`games.models`, below this app.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

import engines
from games.models import Competitor, Game


def engine_choices() -> list[tuple[str, str]]:
    """Every registered engine as a (slug, name) choice, read from the registry when asked.

    A callable, so the forms and validation of ``League.engine`` and
    ``Tournament.engine`` follow the registry without a migration per engine.
    """
    return [(engine.slug, engine.name) for engine in engines.all_engines()]


class League(models.Model):
    """A season or ladder: one engine, its own ratings, tournaments and arena play.

    Rated games of its tournaments and of its arena count in the league's
    rating scope as well as the engine's global one. ``pool`` says who may
    take part, so people-only, bots-only and mixed ratings stay apart.
    """

    class Pool(models.TextChoices):
        MIXED = "mixed", "bots and people"
        BOTS = "bots", "bots only"
        PEOPLE = "people", "people only"

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    engine = models.CharField(
        max_length=30, choices=engine_choices, help_text="The engine its games are played with."
    )
    description = models.TextField(blank=True)
    pool = models.CharField(
        max_length=10,
        choices=Pool.choices,
        default=Pool.MIXED,
        help_text="Who may enter its tournaments and arena.",
    )
    arena_enabled = models.BooleanField(
        default=False,
        help_text="Celery beat pairs the league's arena entrants into games continuously.",
    )
    arena_table_size = models.PositiveSmallIntegerField(
        default=4, help_text="Seats per arena game."
    )
    arena_min_table_size = models.PositiveSmallIntegerField(
        default=3, help_text="Smallest arena game when too few bots are free for a full one."
    )
    arena_move_time_ms = models.PositiveIntegerField(
        default=5000, help_text="Arena games: time per move (ms)."
    )
    arena_time_bank_ms = models.PositiveIntegerField(
        default=0, help_text="Arena games: extra time a seat may spend over the game (ms)."
    )
    arena_rated = models.BooleanField(default=True, help_text="Arena games are rated.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ArenaEntry(models.Model):
    """A competitor taking part in a league's arena (continuous matchmaking)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="arena_entries")
    competitor = models.ForeignKey(
        Competitor, on_delete=models.PROTECT, related_name="arena_entries"
    )
    active = models.BooleanField(default=True, help_text="Off: left the arena, not paired.")
    share_tables_with_own_bots = models.BooleanField(
        default=False,
        help_text="The owner allows this bot at a table with another of their bots.",
    )
    waiting_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When it last became free to play; the longest wait seeds a table.",
    )
    games_played = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "competitor"], name="unique_arena_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.competitor} in the arena of {self.league}"


class Tournament(models.Model):
    """An organised event: entrants, rounds of tables made by a format, standings.

    The event seed is secret until the event ends; ``seed_commitment``
    (sha256 of it) is public from the start, and every game's seed is
    derived from it (``tournaments.events.seeds``), so anyone can check at
    the end that no deal was chosen after the pairings were known.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        ENTRIES_OPEN = "entries_open", "entries open"
        RUNNING = "running", "running"
        PAUSED = "paused", "paused"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        SWISS = "swiss", "Swiss"
        KNOCKOUT = "knockout", "knockout"

    class Seeding(models.TextChoices):
        RATING = "rating", "by rating (equal ratings drawn from the event seed)"
        RANDOM = "random", "random, drawn from the event seed"
        ENTERED = "entered", "as entered"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True, null=True, blank=True)
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    engine = models.CharField(max_length=30, choices=engine_choices)
    options = models.JSONField(
        default=dict, blank=True, help_text="Engine options every game of the event is played with."
    )
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    duplicate = models.BooleanField(
        default=False,
        help_text="Every table plays its deal once per seat rotation (same dice and cards), "
        "so luck cancels out; the table's result aggregates the set.",
    )
    table_size = models.PositiveSmallIntegerField(default=4, help_text="Seats per table.")
    min_table_size = models.PositiveSmallIntegerField(
        default=3, help_text="Smallest table allowed when the entrants do not divide evenly."
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Rounds to play (Swiss); empty lets the format decide."
    )
    bye_points = models.FloatField(
        null=True, blank=True, help_text="Placement points for a bye; empty: the format's default."
    )
    advance_per_table = models.PositiveSmallIntegerField(
        default=1, help_text="Knockout: how many of each table go through."
    )
    move_time_ms = models.PositiveIntegerField(default=5000, help_text="Time per move (ms).")
    time_bank_ms = models.PositiveIntegerField(
        default=0, help_text="Extra time a seat may spend over a game (ms)."
    )
    rated = models.BooleanField(default=True)
    review_rounds = models.BooleanField(
        "review each round",
        default=False,
        help_text="Review each round: its tables are proposed, and its games start only when "
        "the organiser releases it (after swapping entrants or re-pairing, if need be).",
    )
    allow_same_owner_tables = models.BooleanField(
        "owner's entrants may share a table",
        default=False,
        help_text="Off (the default): two entrants of one owner are kept apart wherever the "
        "format can (Swiss, knockout); on: the owner's entrants may share a table.",
    )
    seeding = models.CharField(
        max_length=10,
        choices=Seeding.choices,
        default=Seeding.RATING,
        help_text="How entrants the organiser did not seed by hand are ordered at the start.",
    )
    tie_breaks = models.JSONField(
        default=list,
        blank=True,
        help_text="Tie-breaks after points, in order (names from docs/formats.md); "
        "empty: the default order.",
    )
    absence_grace_s = models.PositiveIntegerField(
        "absence grace (s)",
        default=60,
        help_text="Seconds the next round waits for an entrant who cannot play (suspended, at "
        "its game limit) before pairing without it; it then scores 0 for the round.",
    )
    check_in = models.BooleanField(
        "check-in",
        default=False,
        help_text="Entrants must check in before the start; who has not is dropped at the start.",
    )
    pairing_held_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Since when the next round waits for entrants who cannot play.",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    seed = models.CharField(
        max_length=100, blank=True, help_text="The event seed; secret until the event ends."
    )
    seed_commitment = models.CharField(
        max_length=64, blank=True, help_text="sha256 of the event seed, public before round 1."
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organised_tournaments",
    )
    status_reason = models.TextField(
        blank=True,
        help_text="Why it was paused, cancelled or is stuck, for the organiser and the page.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

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


class Entrant(models.Model):
    """A competitor (bot or person) in a tournament."""

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for the organiser's approval"
        ACTIVE = "active", "active"
        WITHDRAWN = "withdrawn", "withdrawn"
        DISQUALIFIED = "disqualified", "disqualified"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    competitor = models.ForeignKey(Competitor, on_delete=models.PROTECT, related_name="entries")
    seed_order = models.PositiveIntegerField(help_text="1 is the top seed.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    reason = models.TextField(blank=True, help_text="Why withdrawn or disqualified.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who entered it: the bot's owner, the person, or the organiser.",
    )
    checked_in_at = models.DateTimeField(
        null=True, blank=True, help_text="When it checked in (events with check-in)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed_order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "competitor"], name="unique_entrant"),
        ]

    def __str__(self) -> str:
        return f"{self.competitor} in {self.tournament}"


class Round(models.Model):
    """One round of a tournament; made exactly once (unique per number)."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "proposed"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds_played"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.RUNNING,
        help_text="Proposed: its tables wait for the organiser's review (no game yet).",
    )
    byes = models.JSONField(default=list, blank=True, help_text="Entrant ids sitting out.")
    repairs = models.PositiveSmallIntegerField(
        default=0, help_text="How often the organiser re-paired it before its release."
    )
    absent = models.JSONField(
        default=list,
        blank=True,
        help_text="Entrant ids left out because they could not play: no table, no points.",
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament}"


class Table(models.Model):
    """A table of a round: entrants in seat order, played as one game (or a duplicate set)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(help_text="1-based, in the round.")
    seats = models.JSONField(help_text="Entrant ids in seat order; seat 0 moves first.")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


class Adjudication(models.Model):
    """The organiser's result for an event game that was aborted or broken.

    The game itself stays aborted: its record is what was played and is
    never rewritten (decision 0020), and it changes no rating (decision 0036).
    The event's standings count the table with these ranks and scores
    (``events.history``), and the public pages show who entered them and why.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="adjudication")
    ranks = models.JSONField(help_text="Per seat, in seat order: 1 = best; ties share a rank.")
    scores = models.JSONField(help_text="Per seat, in seat order.")
    reason = models.TextField(help_text="Why the organiser decided this result; shown publicly.")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_name = models.CharField(
        max_length=150, help_text="Who entered it, as shown (kept if the account goes)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game"]

    def __str__(self) -> str:
        return f"adjudication of game {self.game_id}"
