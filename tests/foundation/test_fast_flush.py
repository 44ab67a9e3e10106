"""The test database's flush (tests/fast_flush.py) empties every table, related rows included."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection

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
    call_command("flush", interactive=False, inhibit_post_migrate=True, verbosity=0)

    left = {m._meta.label: m.objects.count() for m in models if m.objects.exists()}
    assert left == {}
