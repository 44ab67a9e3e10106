"""Engines by slug.

Every sub-package of ``engines`` that exposes a module-level ``ENGINE`` is
registered on first use, so adding a game means adding its package and
nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Engine, InvalidGame

_ENGINES: dict[str, Engine] = {}
_discovered = False


def register(engine: Engine) -> Engine:
    """Add an engine (tests may register toy engines)."""
    _ENGINES[engine.slug] = engine
    return engine


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if isinstance(engine, Engine):
            register(engine)
    _discovered = True


def get(slug: str) -> Engine:
    """The engine for ``slug``; a clear :class:`InvalidGame` if there is none."""
    _discover()
    try:
        return _ENGINES[slug]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_ENGINES)) or "none"
        raise InvalidGame(f"unknown engine {slug!r}; known engines: {known}") from None


def all_engines() -> list[Engine]:
    """Every registered engine, by slug."""
    _discover()
    return [_ENGINES[slug] for slug in sorted(_ENGINES)]
