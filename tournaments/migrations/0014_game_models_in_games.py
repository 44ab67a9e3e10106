"""The game models leave tournaments for the games app: state only, no table is touched."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('botapi', '0004_game_models_in_games'),
        ('games', '0001_initial'),
        ('lobby', '0002_game_models_in_games'),
        ('people', '0002_game_models_in_games'),
        ('ratings', '0005_game_models_in_games'),
        ('stats', '0002_game_models_in_games'),
        ('tournaments', '0013_game_step_failures_status_reason'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='seat',
                    name='competitor',
                ),
                migrations.AlterField(
                    model_name='entrant',
                    name='competitor',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='arenaentry',
                    name='competitor',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='arena_entries', to='games.competitor'),
                ),
                migrations.RemoveField(
                    model_name='game',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='game',
                    name='league',
                ),
                migrations.RemoveField(
                    model_name='game',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='game',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='seat',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='outcome',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='gamerecord',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='gamecheckpoint',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='move',
                    name='game',
                ),
                migrations.DeleteModel(
                    name='Competitor',
                ),
                migrations.DeleteModel(
                    name='Seat',
                ),
                migrations.DeleteModel(
                    name='Outcome',
                ),
                migrations.DeleteModel(
                    name='GameRecord',
                ),
                migrations.DeleteModel(
                    name='GameCheckpoint',
                ),
                migrations.DeleteModel(
                    name='Game',
                ),
                migrations.DeleteModel(
                    name='Move',
                ),
            ],
        ),
    ]
