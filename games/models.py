"""Who plays, what is played, and every move of it.

The move log is the truth of a game: the state is always
``engines.replay(engine, num_players, options, moves)``; the seed only decides,
through ``engines.Dealer``, which chance outcomes get logged. ``Move`` is unique
on ``(game, ply)``, so a duplicate submission or a raced worker fails at the
database instead of forking the game.

These models were born in ``tournaments`` and keep its table, index and
constraint names (``db_table``): moving them to this app moved no data. A
game names its event (league, tournament, table) by string, so nothing here
imports the events app above it (docs/decisions/0028-games-refer-to-events-by-string.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
        db_table = "tournaments_competitor"
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"


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
        """Why an unrated game is unrated (``games.rating_rules``); blank when rated."""

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
        "tournaments.League", null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games",
    )
    round_number = models.PositiveIntegerField(null=True, blank=True)
    table = models.ForeignKey(
        "tournaments.Table",
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
        db_table = "tournaments_game"
        ordering = ["-created_at", "-id"]
        # The public game lists (``games.listings``, ``GET /api/v1/games/``) show listed
        # games newest first and page by cursor on (created_at, id): each of these partial
        # indexes hands a page over in order, however many games there are.
        indexes = [
            models.Index(
                fields=["status", "last_progress_at"], name="tournaments_status_70c4e6_idx"
            ),
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
        db_table = "tournaments_seat"
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
        db_table = "tournaments_move"
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

    class Meta:
        db_table = "tournaments_outcome"

    def __str__(self) -> str:
        return f"outcome of game {self.game_id}"


class GameRecord(models.Model):
    """A finished game's public record, computed once (``games.records.stored``), never edited.

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

    class Meta:
        db_table = "tournaments_gamerecord"

    def __str__(self) -> str:
        return f"record of game {self.game_id}"


class GameCheckpoint(models.Model):
    """The engine state after ``ply`` moves of a finished game, for the board replay only.

    Stored with its game's :class:`GameRecord` (same transaction) every
    ``records.CHECKPOINT_EVERY`` plies, so a page of the board replay starts
    from the nearest one instead of ply 0. It is a whole state (``to_json``,
    secrets included, like the move log itself): only ``games.records.replay``
    reads it, and turns it into views through ``board_model``; nothing sends it.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    ply = models.PositiveIntegerField()
    state = models.TextField(help_text="``State.to_json()`` as compact JSON text (key order kept).")

    class Meta:
        db_table = "tournaments_gamecheckpoint"
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="unique_checkpoint_ply"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} state after ply {self.ply}"
