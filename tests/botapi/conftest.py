"""Bot API tests: rate-limit counters reset before each test."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Rate-limit counters live in the cache, which outlives each test's database."""
    cache.clear()
