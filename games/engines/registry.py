"""The engines the platform knows, by slug. Imported lazily so one engine's import cost or
failure never touches another game."""

from __future__ import annotations

import importlib
from functools import cache

from games.engines.base import GameEngine

_MODULES: dict[str, str] = {
    "lords-of-vegas": "games.engines.lords_of_vegas",
    "vegas": "games.engines.vegas",
}


def slugs() -> list[str]:
    """Every game type, in the order the platform lists them."""
    return list(_MODULES)


@cache
def get_engine(slug: str) -> GameEngine:
    """The engine for ``slug``; each engine package exposes it as ``ENGINE``."""
    try:
        module = _MODULES[slug]
    except KeyError:
        raise LookupError(f"unknown game type {slug!r}; known: {', '.join(_MODULES)}") from None
    engine: GameEngine = importlib.import_module(module).ENGINE
    return engine
