"""Its references to the game models now name the games app: state only, no column changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        ('ratings', '0004_rating_change_history'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='rating',
                    name='competitor',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='last_game',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='competitor',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='rating_changes', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='game',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rating_changes', to='games.game'),
                ),
            ],
        ),
    ]
