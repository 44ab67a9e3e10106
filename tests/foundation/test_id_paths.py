"""``web.id_paths``: the path ``reverse`` gives, for every id and script prefix."""

from __future__ import annotations

import pytest
from django.urls import get_script_prefix, reverse, set_script_prefix

from web.id_paths import id_path, id_paths

NAMES = ["stats:competitor", "tournaments:game", "tournaments:tournament"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("pk", [1, 7, 10, 918273, 2**40])
def test_the_path_is_reverses(name: str, pk: int) -> None:
    assert id_path(name, pk) == reverse(name, args=[pk])


def test_each_script_prefix_gets_its_own_path() -> None:
    before = get_script_prefix()
    set_script_prefix("/harbor/")  # as the WSGI handler does for a site mounted there
    try:
        mounted = id_path("tournaments:game", 5)
        assert mounted == reverse("tournaments:game", args=[5])
    finally:
        set_script_prefix(before)
    assert mounted.startswith("/harbor/")
    assert id_path("tournaments:game", 5) == reverse("tournaments:game", args=[5])


def test_id_paths_gives_the_same_paths() -> None:
    game_path = id_paths("tournaments:game")
    assert [game_path(pk) for pk in (1, 42, 10**9)] == [
        reverse("tournaments:game", args=[pk]) for pk in (1, 42, 10**9)
    ]
