"""The leaderboard pages rank and page a scope's ratings in the database (issue #17).

rating_ladder_order serves WHERE scope_id = ? AND system = ? ORDER BY score DESC,
competitor_id with RANK() over it, LIMIT/OFFSET, and the count of the scope.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_ratingchange_protects_its_record"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                fields=["scope", "system", "-score", "competitor"], name="rating_ladder_order"
            ),
        ),
    ]
