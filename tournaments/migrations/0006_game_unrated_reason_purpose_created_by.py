"""Game.unrated_reason, Game.purpose and Game.created_by (issue 19: farming, fair capacity).

Games recorded before keep a blank reason: which rule made them unrated (or
who created them) was not stored then and is not guessed now.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_game_listed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                help_text="The user who asked for the game (challengers' share of an open bot); empty for games the service made (demo, events, local tests).",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="created_games",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="purpose",
            field=models.CharField(
                choices=[
                    ("casual", "made by a user, the demo or a local test"),
                    ("event", "paired by an organiser's event (a tournament, the arena)"),
                ],
                default="casual",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="unrated_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("same_owner", "one owner holds several seats"),
                    ("challenge", "a challenge"),
                    ("chosen_seed", "chosen seed"),
                    ("creator", "its creator chose so"),
                ],
                help_text="Why the game is unrated; blank when it is rated (and for games recorded before reasons were kept).",
                max_length=20,
            ),
        ),
    ]
