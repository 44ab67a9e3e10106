"""Moving models moves no data: the snapshot taken before the move, migrated, is intact.

``snapshot.sql.gz`` is a PostgreSQL database at the schema before the games
app (made by ``populate.py``: finished games of all four engines, a Swiss
event with rounds, ratings and their changes, bots, a person with a game, a
lobby table). The test loads it into a fresh database of its own, runs
``migrate`` to today's schema, and checks that no table lost or gained a
row, every game verifies, every rating chain is unbroken and every URL
recorded with the snapshot answers as it did.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _server_url(database: str) -> str:
    config = settings.DATABASES["default"]
    user = config.get("USER") or "postgres"
    password = f":{config['PASSWORD']}" if config.get("PASSWORD") else ""
    host = config.get("HOST") or "127.0.0.1"
    port = config.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{database}"


@pytest.fixture
def snapshot_copy() -> Iterator[str]:
    """A fresh database (named per xdist worker and run) holding the snapshot; dropped after."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"hm_migration_{worker}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(_server_url("postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _server_url(name)
    try:
        subprocess.run(
            ["psql", "--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", url],
            input=gzip.decompress((HERE / "snapshot.sql.gz").read_bytes()),
            capture_output=True,
            check=True,
        )
        yield url
    finally:
        with psycopg.connect(_server_url("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _row_counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        return {
            table: conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            for table in tables
            if table != "django_migrations"
        }


def _schema(url: str) -> dict[str, list[str]]:
    """Every index and constraint name in the database, by table: a state-only move keeps them."""
    with psycopg.connect(url) as conn:
        names: dict[str, list[str]] = {}
        for table, name in conn.execute(
            "SELECT tablename, indexname FROM pg_indexes WHERE schemaname = 'public'"
            " UNION SELECT conrelid::regclass::text, conname FROM pg_constraint"
            " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2"
        ):
            names.setdefault(table, []).append(name)
        return names


def _content_types(url: str) -> dict[int, tuple[str, str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT id, app_label, model FROM django_content_type")
        return {pk: (label, model) for pk, label, model in rows}


def _permissions_of(url: str, content_type_ids: list[int]) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT count(*) FROM auth_permission WHERE content_type_id = ANY(%s)",
            [content_type_ids],
        ).fetchone()[0]


MOVED = {"competitor", "game", "seat", "move", "outcome", "gamerecord", "gamecheckpoint"}


def _run(module: list[str], url: str) -> str:
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": ""}
    done = subprocess.run(
        [sys.executable, *module], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_snapshot_migrates_with_every_row_game_rating_and_page_intact(snapshot_copy) -> None:
    before = _row_counts(snapshot_copy)
    schema = _schema(snapshot_copy)
    content_types = _content_types(snapshot_copy)
    _run(["manage.py", "migrate", "--noinput"], snapshot_copy)
    after = _row_counts(snapshot_copy)
    # A model added since the snapshot brings its content type and permissions: those rows
    # are new, every row there before stays (same ids; the moved models' are relabelled
    # below), and no other table changes count.
    grown = {"django_content_type", "auth_permission"}
    assert {t: after.get(t) for t in before if t not in grown} == {
        t: n for t, n in before.items() if t not in grown
    }
    assert set(content_types) <= set(_content_types(snapshot_copy))  # none dropped
    assert _permissions_of(snapshot_copy, list(content_types)) == before["auth_permission"]
    # Every constraint and index there before is still there (a column added since may bring
    # its own: a positive field's check, say).
    migrated = _schema(snapshot_copy)
    assert {t: [c for c in names if c in migrated.get(t, [])] for t, names in schema.items()} == (
        schema
    )
    # The moved models keep their content types' ids (admin log entries, permissions).
    moved = {pk: ("games", model) for pk, (label, model) in content_types.items() if model in MOVED}
    assert len(moved) == len(MOVED)
    assert {pk: _content_types(snapshot_copy)[pk] for pk in moved} == moved
    result = json.loads(
        _run(["-m", "tests.migration_snapshot.check"], snapshot_copy).splitlines()[-1]
    )
    assert result["problems"] == []
    recorded = json.loads((HERE / "urls.json").read_text())
    assert result["checked"]["games"] == 9
    assert result["checked"]["chains"] > 0
    assert result["checked"]["urls"] == len(recorded)
