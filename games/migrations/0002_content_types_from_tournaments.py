"""The moved models' content types follow them from ``tournaments`` to ``games``.

Renamed rather than recreated, so admin log entries and permissions (which
point at a content type's id) stay attached to the same models. On a new
database there is nothing to rename: the content types are made after the
migrations, already under ``games``.
"""

from django.db import migrations

MOVED = ["competitor", "game", "seat", "move", "outcome", "gamerecord", "gamecheckpoint"]


def relabel(apps, from_label, to_label):
    content_types = apps.get_model("contenttypes", "ContentType").objects
    taken = set(
        content_types.filter(app_label=to_label, model__in=MOVED).values_list("model", flat=True)
    )
    content_types.filter(app_label=from_label, model__in=MOVED).exclude(model__in=taken).update(
        app_label=to_label
    )


def forwards(apps, schema_editor):
    relabel(apps, "tournaments", "games")


def backwards(apps, schema_editor):
    relabel(apps, "games", "tournaments")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
