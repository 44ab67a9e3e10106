"""Its references to the game models now name the games app: state only, no column changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        ('lobby', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='lobbyseat',
                    name='competitor',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='lobby_seats', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='lobbytable',
                    name='game',
                    field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='lobby_table', to='games.game'),
                ),
            ],
        ),
    ]
