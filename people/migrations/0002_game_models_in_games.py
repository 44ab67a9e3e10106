"""Its references to the game models now name the games app: state only, no column changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        ('people', '0001_profile'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='profile',
                    name='competitor',
                    field=models.OneToOneField(help_text="The person's seat-holding, rated identity (kind 'person').", on_delete=django.db.models.deletion.RESTRICT, related_name='profile', to='games.competitor'),
                ),
            ],
        ),
    ]
