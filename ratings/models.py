"""Where ratings live: a scope per league or engine ladder, a rating per competitor.

``RatingChange`` is unique on (game, competitor, scope, system): applying the
same game twice fails at the database instead of counting it twice, and the
changes together are the audit trail a leaderboard can be checked against.
"""

from __future__ import annotations

from django.db import models

from games.models import Competitor, Game


class RatingScope(models.Model):
    """A league's ratings, or the global ladder of one engine.

    ``systems`` maps each system name to the parameters and library version it
    was computed with, so a recompute uses exactly the same numbers.
    """

    class Kind(models.TextChoices):
        GLOBAL = "global", "global ladder"
        LEAGUE = "league", "league"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    engine = models.CharField(max_length=30)
    league = models.OneToOneField(
        "tournaments.League",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_scope",
    )
    systems = models.JSONField(help_text='{"elo": {"params": {...}, "library": "..."}, ...}')
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "engine", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["engine"],
                condition=models.Q(kind="global"),
                name="one_global_scope_per_engine",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="global", league__isnull=True)
                    | models.Q(kind="league", league__isnull=False)
                ),
                name="league_scope_has_league",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.GLOBAL:
            return f"{self.engine} global ladder"
        return f"league {self.league}"


class Rating(models.Model):
    """A competitor's current rating in one scope and system.

    ``value`` is the Elo rating or TrueSkill/OpenSkill mu; ``sigma`` is empty
    for Elo. ``score`` is what leaderboards sort by (Elo itself, mu - 3 sigma).
    """

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="ratings")
    scope = models.ForeignKey(RatingScope, on_delete=models.CASCADE, related_name="ratings")
    system = models.CharField(max_length=20)
    value = models.FloatField()
    sigma = models.FloatField(null=True, blank=True)
    score = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    last_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["scope", "system", "-score"]
        constraints = [
            models.UniqueConstraint(
                fields=["competitor", "scope", "system"], name="one_rating_per_system"
            ),
        ]
        # A leaderboard page (``web.leaderboards.ranking``): one scope and system, best score
        # first, ties by competitor; its rows, their RANK() and the count come from this index.
        indexes = [
            models.Index(
                fields=["scope", "system", "-score", "competitor"], name="rating_ladder_order"
            )
        ]

    def __str__(self) -> str:
        return f"{self.competitor} {self.system} {self.score:.1f}"


class RatingChange(models.Model):
    """What one game did to one competitor's rating in one scope and system.

    Every reference is ``PROTECT``: deleting the game, the competitor or the
    scope (or the league that owns it) would erase the change while the
    rating keeps its effect, so the database refuses. Only
    ``ratings.recompute`` deletes changes, and it rebuilds the ratings with them.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rating_changes")
    # No index of its own: ``rating_change_history`` leads with the competitor.
    competitor = models.ForeignKey(
        Competitor, on_delete=models.PROTECT, related_name="rating_changes", db_index=False
    )
    scope = models.ForeignKey(RatingScope, on_delete=models.PROTECT, related_name="changes")
    system = models.CharField(max_length=20)
    rank = models.PositiveSmallIntegerField()
    before_value = models.FloatField()
    before_sigma = models.FloatField(null=True, blank=True)
    after_value = models.FloatField()
    after_sigma = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["scope", "system", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "competitor", "scope", "system"], name="one_change_per_game"
            ),
        ]
        # A competitor page's rating chart (``stats.history``): the latest changes of one
        # competitor in one scope and system, in the order they were applied (id order, see
        # there), found by walking this index backwards from its end.
        indexes = [
            models.Index(
                fields=["competitor", "scope", "system", "id"], name="rating_change_history"
            )
        ]

    def __str__(self) -> str:
        return f"{self.system} {self.before_value:.1f} -> {self.after_value:.1f}"
