"""Game.listed: local test games (``manage.py play``) are kept off public lists.

Games already played by ``manage.py play`` (seats held by bots of the user
``local-play``) become unlisted.
"""

from django.db import migrations, models

LOCAL_USER = "local-play"  # botapi.play.LOCAL_USER, frozen here as of this migration


def unlist_local_games(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    local = Game.objects.filter(seats__competitor__user__username=LOCAL_USER)
    Game.objects.filter(pk__in=local.values("pk")).update(listed=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_engine_choices"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="listed",
            field=models.BooleanField(
                default=True,
                help_text="Shown in public lists (home page, the API's game list, leaderboard pages). Off for local test games (manage.py play); their own page stays reachable by id.",
            ),
        ),
        migrations.RunPython(unlist_local_games, migrations.RunPython.noop),
    ]
