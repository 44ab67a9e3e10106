"""The test database's flush (tests/fast_flush.py) empties every table, related rows included,
but the content types and permissions, which it keeps as they were instead of making them again."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.models.signals import post_migrate

from games.services import create_game
from tests.factories import CompetitorFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_flush_empties_tables_whose_rows_refer_to_each_other() -> None:
    players = CompetitorFactory.create_batch(3)
    create_game("manila", players, seed="flush")
    models = [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]
    assert any(m.objects.exists() for m in models if m._meta.label == "games.Seat")

    sql = connection.ops.sql_flush(None, ["tournaments_seat"])
    assert sql[0] == "SET CONSTRAINTS ALL DEFERRED" and sql[1].startswith("DELETE FROM")
    kept = {ContentType: set(ContentType.objects.values_list()),
            Permission: set(Permission.objects.values_list())}  # fmt: skip
    # reset_sequences=False, as Django's flush after a transactional test (True: TRUNCATE).
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)

    left = {m._meta.label: m.objects.count() for m in models if m.objects.exists()}
    assert left == {"contenttypes.ContentType": len(kept[ContentType]),
                    "auth.Permission": len(kept[Permission])}  # fmt: skip
    assert {model: set(model.objects.values_list()) for model in kept} == kept


def test_a_delete_flush_sends_no_post_migrate_and_a_truncate_flush_does() -> None:
    """What post_migrate would make again is kept; after TRUNCATE (reset_sequences) it is made."""
    sent: list[str] = []

    def heard(sender, **kwargs) -> None:
        sent.append(sender.label)

    post_migrate.connect(heard, dispatch_uid="test_fast_flush")
    try:
        call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
        assert sent == []
        assert ContentType.objects.filter(app_label="games", model="game").exists()
        call_command("flush", interactive=False, verbosity=0, reset_sequences=True)
        assert "contenttypes" in sent and "auth" in sent
        assert ContentType.objects.filter(app_label="games", model="game").exists()
        assert Permission.objects.filter(codename="view_tournament").exists()
        # A TRUNCATE flush told to send no signal empties them: the next flush makes them again.
        call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
        assert not ContentType.objects.exists()
        sent.clear()
        call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
        assert "contenttypes" in sent
        assert ContentType.objects.filter(app_label="games", model="game").exists()
    finally:
        post_migrate.disconnect(dispatch_uid="test_fast_flush")
