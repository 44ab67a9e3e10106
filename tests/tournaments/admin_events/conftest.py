"""Fixtures of the organiser's admin tests: a logged-in staff client and the forms it posts."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory


@pytest.fixture
def organiser():
    """A staff user who may change tournaments (a superuser: every admin permission)."""
    return UserFactory(admin=True, password=None)


@pytest.fixture
def staff(client: Client, organiser) -> Client:
    client.force_login(organiser)
    return client
