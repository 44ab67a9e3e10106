"""The admin shows lobby tables but cannot add, change or delete them (a game points at them)."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby import services
from lobby.models import LobbyTable
from tests.factories import UserFactory

from .conftest import person, snapshot

pytestmark = pytest.mark.django_db


def test_staff_see_tables_read_only() -> None:
    host, guest = person("hana"), person("gus")
    table = services.create_table(host, "cargo_noir", 2, "quick", False, [None])
    services.join(table, guest)
    client = Client()
    client.force_login(UserFactory(username="staff", admin=True, password=None))
    assert client.get("/admin/lobby/lobbytable/").status_code == 200
    page = client.get(f"/admin/lobby/lobbytable/{table.pk}/change/")
    assert page.status_code == 200 and "gus" in page.content.decode()
    before = snapshot()
    assert client.get("/admin/lobby/lobbytable/add/").status_code == 403
    assert (
        client.post(f"/admin/lobby/lobbytable/{table.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert (
        client.post(f"/admin/lobby/lobbytable/{table.pk}/change/", {"rated": "on"}).status_code
        == 403
    )
    assert snapshot() == before
    assert LobbyTable.objects.get().status == LobbyTable.Status.STARTED
