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
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds_played"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    byes = models.JSONField(default=list, blank=True, help_text="Entrant ids sitting out.")
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
    table = models.ForeignKey(
        Table,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games",
        help_text="The tournament table this game plays (several games for a duplicate set).",
    )
    move_time_ms = models.PositiveIntegerField(default=5000)
    time_bank_ms = models.PositiveIntegerField(default=0)
    next_ply = models.PositiveIntegerField(default=0, help_text="Number of moves logged.")
    status_reason = models.TextField(
        blank=True,
        db_default="",
        help_text="Why the game was aborted, for its page, the admin and organisers.",
    )
    failing_ply = models.PositiveIntegerField(
        null=True, blank=True, help_text="The ply on which the referee last failed (an error)."
    )
    failures = models.PositiveSmallIntegerField(
        default=0,
        db_default=0,
        help_text="The referee's failures in a row on failing_ply; at the limit the ply is "
        "given up (a fault for the seat that answered, else the game is aborted).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # The public game lists (``tournaments.listings``, ``GET /api/v1/games/``) show listed
        # games newest first and page by cursor on (created_at, id): each of these partial
        # indexes hands a page over in order, however many games there are.
        indexes = [
            models.Index(fields=["status", "last_progress_at"]),
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(listed=True),
                name="game_listed_newest",
            ),
            models.Index(
                fields=["engine", "-created_at", "-id"],
                condition=models.Q(listed=True),
                name="game_listed_engine_newest",
            ),
            models.Index(
                fields=["status", "-created_at", "-id"],
                condition=models.Q(listed=True),
                name="game_listed_status_newest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.engine} game {self.pk}"


class Seat(models.Model):
    """A competitor's place at a game's table."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    competitor = models.ForeignKey(Competitor, on_delete=models.PROTECT, related_name="seats")
    forfeited = models.BooleanField(default=False)
    withdrawn = models.BooleanField(
        default=False,
        help_text="Its entrant withdrew or was disqualified from the event during the game: "
        "the seat forfeited, and its result changes no rating (the other seats are rated "
        "among themselves).",
    )
    substituted = models.BooleanField(
        default=False,
        help_text="A house bot plays the seat for the rest of the game: its person timed out "
        "too often or resigned. Always set together with forfeited (the person ranks last), "
        "so the other players still play a real game.",
    )
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
        # A competitor's games (the person pages): their seats' game ids from the index alone.
        indexes = [models.Index(fields=["competitor", "game"], name="seat_competitor_game")]

    def __str__(self) -> str:
        return f"seat {self.position} of game {self.game_id}"


class Move(models.Model):
    """One action of the log: a player's, a default after a fault, a house bot's, or chance's."""

    class Source(models.TextChoices):
        BOT = "bot", "bot"
        PERSON = "person", "person"
        CHANCE = "chance", "chance"
        DEFAULT = "default", "default after a fault"
        HOUSE = "house", "house bot for a substituted seat"

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
        indexes = [
            # A seat's faults in ply order (the bot owner's log filtered to faults, the
            # first fault of a game for its alert). Partial: good moves, nearly all of
            # them, are not in it, so the referee's inserts of good moves never touch it.
            models.Index(
                fields=["game", "seat", "ply"],
                condition=~models.Q(fault_kind=""),
                name="move_faults_by_seat",
            ),
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


class GameRecord(models.Model):
    """A finished game's public record, computed once (``tournaments.records``), never edited.

    ``plies`` is one ``[seat, action, description, events]`` per logged ply, as JSON text:
    who moved, the action and its ``describe`` text (shown only once the game's
    record is public: ``spectator.is_public`` decides on every read), and the
    public events the ply produced. No view, no seat's private part. Derived
    from the move log: deleting it loses nothing (it is rebuilt on the next
    view), and it counts only while ``rules_version`` is the server's version
    of the engine (a newer version may replay an old log differently).
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="record"
    )
    rules_version = models.CharField(
        max_length=20, help_text="The engine version the record was computed with."
    )
    replayable = models.PositiveIntegerField(
        help_text="Moves that replay under those rules (all of them unless the log is older)."
    )
    plies = models.TextField(
        help_text="Compact JSON, as text: PostgreSQL's jsonb would reorder the events' keys, "
        "and the engines' sentences follow their order."
    )
    built_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"record of game {self.game_id}"


class GameCheckpoint(models.Model):
    """The engine state after ``ply`` moves of a finished game, for the board replay only.

    Stored with its game's :class:`GameRecord` (same transaction) every
    ``records.CHECKPOINT_EVERY`` plies, so a page of the board replay starts
    from the nearest one instead of ply 0. It is a whole state (``to_json``,
    secrets included, like the move log itself): only ``tournaments.replay``
    reads it, and turns it into views through ``board_model``; nothing sends it.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    ply = models.PositiveIntegerField()
    state = models.TextField(help_text="``State.to_json()`` as compact JSON text (key order kept).")

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="unique_checkpoint_ply"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} state after ply {self.ply}"
