"""Fixtures shared by the bot API tests: a user, an API client logged in as them."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Rate-limit counters live in the cache, which outlives each test's database."""
    cache.clear()


@pytest.fixture
def user():
    return UserFactory(password=None)


@pytest.fixture
def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client
