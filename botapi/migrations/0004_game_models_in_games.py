"""Its references to the game models now name the games app: state only, no column changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('botapi', '0003_bot_alert_webhook_previous_version'),
        ('games', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='bot',
                    name='competitor',
                    field=models.OneToOneField(help_text="The bot's seat-holding, rated identity.", on_delete=django.db.models.deletion.CASCADE, related_name='bot', to='games.competitor'),
                ),
                migrations.AlterField(
                    model_name='botalert',
                    name='game',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game'),
                ),
            ],
        ),
    ]
