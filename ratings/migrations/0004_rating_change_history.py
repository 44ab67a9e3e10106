"""A competitor page's rating chart reads the latest changes per ladder (issue #17).

rating_change_history serves WHERE competitor_id = ? AND scope_id = ? AND system = ?
ORDER BY id DESC (the latest changes first, ``stats.history``), and whatever the
competitor's own foreign-key index served (the PROTECT check when a competitor is
deleted), so that index goes, after the new one exists.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0003_rating_ladder_order"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["competitor", "scope", "system", "id"], name="rating_change_history"
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="competitor",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="rating_changes",
                to="tournaments.competitor",
            ),
        ),
    ]
