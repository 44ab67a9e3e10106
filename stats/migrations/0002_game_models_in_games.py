"""Its references to the game models now name the games app: state only, no column changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        ('stats', '0001_competitor_tallies'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='countedgame',
                    name='game',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='stats_counted', serialize=False, to='games.game'),
                ),
                migrations.AlterField(
                    model_name='opponenttally',
                    name='competitor',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='opponenttally',
                    name='opponent',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='seattally',
                    name='competitor',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.competitor'),
                ),
            ],
        ),
    ]
