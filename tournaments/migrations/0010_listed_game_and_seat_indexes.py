"""Indexes for the public game lists (issue #17): each serves one ordering or filter of a list.

- game_listed_newest: listed games ORDER BY created_at DESC, id DESC (home page, /games/,
  GET /api/v1/games/), and the cursor's created_at bound.
- game_listed_engine_newest: the same with engine = ? (leaderboard page, ?engine=).
- game_listed_status_newest: the same with status = ? (GET /api/v1/games/?status=).
- seat_competitor_game: a competitor's seats -> game ids, index-only (person pages).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_seat_substituted_move_house"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("listed", True)),
                fields=["-created_at", "-id"],
                name="game_listed_newest",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("listed", True)),
                fields=["engine", "-created_at", "-id"],
                name="game_listed_engine_newest",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("listed", True)),
                fields=["status", "-created_at", "-id"],
                name="game_listed_status_newest",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["competitor", "game"], name="seat_competitor_game"),
        ),
    ]
