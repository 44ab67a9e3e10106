"""Which rating scopes a game counts for, created on first use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef

from games.models import Game
from ratings.models import RatingScope
from ratings.systems import SYSTEMS, get_system

DEFAULT_SYSTEMS = ("elo", "trueskill", "openskill")


def systems_config(
    names: Iterable[str] = DEFAULT_SYSTEMS, params: dict[str, dict[str, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """The ``RatingScope.systems`` value: full parameters and library version per system."""
    params = params or {}
    config = {}
    for name in names:
        system = get_system(name)
        config[name] = {
            "params": system.params(params.get(name)),
            "library": system.library_version,
        }
    return config


def _get_or_create(lookup: dict[str, Any], defaults: dict[str, Any]) -> RatingScope:
    """get_or_create that survives two workers creating the same scope at once."""
    try:
        with transaction.atomic():
            return RatingScope.objects.get_or_create(**lookup, defaults=defaults)[0]
    except IntegrityError:
        return RatingScope.objects.get(**lookup)


def global_scope(engine: str) -> RatingScope:
    """The global ladder of one engine (all rated games of that engine)."""
    return _get_or_create(
        {"kind": RatingScope.Kind.GLOBAL, "engine": engine}, {"systems": systems_config()}
    )


def league_scope(league: Any) -> RatingScope:
    """A league's own ratings (rated games played in that league).

    ``league`` is a ``tournaments.League``, read by its fields only: the events
    app sits above ratings, which never imports it.
    """
    return _get_or_create(
        {"kind": RatingScope.Kind.LEAGUE, "league": league},
        {"engine": league.engine, "systems": systems_config()},
    )


def scopes_for(game: Game) -> list[RatingScope]:
    """Every scope a rated game counts for: its engine's ladder and its league, if any."""
    scopes = [global_scope(game.engine)]
    if game.league_id is not None:
        scopes.append(league_scope(game.league))
    return scopes


def lock_for_apply(scopes: list[RatingScope]) -> None:
    """Hold every scope a live application writes to against a concurrent recompute.

    ``FOR KEY SHARE``, in primary-key order: live applications never wait for
    one another here (they serialise on rating rows instead), but each waits
    for a recompute of the scope, which holds it ``FOR UPDATE`` while it
    rebuilds (``ratings.services.recompute``). SQLite has no row locks; its single
    writer already keeps a recompute and an application apart.
    """
    if connection.vendor != "postgresql" or not scopes:
        return
    table = connection.ops.quote_name(RatingScope._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {table} WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",
            [sorted(scope.pk for scope in scopes)],
        )


def games_of(scope: RatingScope):
    """The finished rated games of a scope, in finish order.

    Without a game whose duplicate set still plays: it is rated once its set
    is over (``services.apply_closed_set``), so a recompute leaves it out
    until then, as the live path does.
    """
    playing = Game.objects.filter(
        table_id=OuterRef("table_id"), status__in=[Game.Status.SCHEDULED, Game.Status.RUNNING]
    )
    games = Game.objects.filter(status=Game.Status.FINISHED, rated=True).filter(~Exists(playing))
    if scope.kind == RatingScope.Kind.GLOBAL:
        games = games.filter(engine=scope.engine)
    else:
        games = games.filter(league_id=scope.league_id)
    return games.order_by("finished_at", "id")


def check_library_versions(scope: RatingScope) -> list[str]:
    """Systems whose stored library version differs from the installed one."""
    return [
        name
        for name, conf in scope.systems.items()
        if name in SYSTEMS and conf.get("library") != SYSTEMS[name].library_version
    ]
