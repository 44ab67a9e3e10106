from __future__ import annotations

import pytest

from .fixtures import World, build_world


@pytest.fixture
def world(db) -> World:
    return build_world()
