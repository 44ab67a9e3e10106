"""Per-competitor tallies of counted games, kept so a competitor page reads a few rows, not history.

A game is *counted* (``stats.selectors.competitor.counted``) once it is public in full and
listed; from then on its outcome never changes (finished games are never
edited, a duplicate set once over stays over). So each counted game is added
to the tallies exactly once, in the transaction that made it public
(``stats.services.settle``), and marked by a :class:`CountedGame` row: a game
with a mark is in the tallies, one without is not. Sums and counts are kept
rather than averages, so adding a game is an increment, and an average is
``sum / count`` over exactly the rows the old aggregate queries averaged.
``manage.py build_competitor_stats`` rebuilds all three tables from the games.
"""

from __future__ import annotations

from django.db import models

from games.models import Competitor, Game

SEAT_SUMS = ("games", "firsts", "rank_sum", "rank_count", "score_sum", "score_count")
"""The summed columns of :class:`SeatTally`: settled by increments, read as averages."""
OPPONENT_SUMS = (
    "games",
    "my_rank_sum",
    "my_rank_count",
    "their_rank_sum",
    "their_rank_count",
    "ahead",
    "level",
    "behind",
    "difference_sum",
    "difference_count",
)
"""The summed columns of :class:`OpponentTally`, in the order the head-to-head reads them."""


class CountedGame(models.Model):
    """The mark that a game is in the tallies: its insert keeps a game from counting twice."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="stats_counted"
    )

    def __str__(self) -> str:
        return f"game {self.game_id} counted"


class SeatTally(models.Model):
    """A competitor's results from one seat of one engine at one table size (results by seat)."""

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="+")
    engine = models.CharField(max_length=30)
    players = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField(default=0)
    firsts = models.PositiveIntegerField(default=0, help_text="Rank 1, shared or not.")
    rank_sum = models.FloatField(default=0)
    rank_count = models.PositiveIntegerField(default=0, help_text="Games with a rank.")
    score_sum = models.FloatField(default=0)
    score_count = models.PositiveIntegerField(default=0, help_text="Games with a score.")

    class Meta:
        constraints = [
            # Also the page's index: its rows for one competitor, in the page's order.
            models.UniqueConstraint(
                fields=["competitor", "engine", "players", "position"], name="one_seat_tally"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competitor_id} {self.engine}/{self.players} seat {self.position}"


class OpponentTally(models.Model):
    """A competitor against one opponent in one engine (head to head).

    A *pair* is one of the competitor's seats beside one of the opponent's in
    a game (a game where either holds two seats gives several pairs, as the
    aggregate query compared them); ``games`` counts each game once.
    """

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="+")
    engine = models.CharField(max_length=30)
    games = models.PositiveIntegerField(default=0)
    my_rank_sum = models.FloatField(default=0)
    my_rank_count = models.PositiveIntegerField(default=0)
    their_rank_sum = models.FloatField(default=0)
    their_rank_count = models.PositiveIntegerField(default=0)
    ahead = models.PositiveIntegerField(default=0, help_text="Pairs where my rank is better.")
    level = models.PositiveIntegerField(default=0)
    behind = models.PositiveIntegerField(default=0)
    difference_sum = models.FloatField(default=0, help_text="Sum of my score - theirs.")
    difference_count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competitor", "opponent", "engine"], name="one_opponent_tally"
            ),
        ]
        # The page's head-to-head: one competitor's rows, most games first, read up to
        # its limit (ties on games then sorted by name, a bounded sort per competitor).
        indexes = [models.Index(fields=["competitor", "-games"], name="opponent_tally_most_met")]

    def __str__(self) -> str:
        return f"{self.competitor_id} vs {self.opponent_id} in {self.engine}"
