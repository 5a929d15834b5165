"""The engine is what the platform expects: found by slug, and the protocol's shape."""

from __future__ import annotations

import ast
from pathlib import Path

from games.engines import registry
from games.engines.base import GameEngine
from games.engines.vegas import ENGINE

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "engines" / "vegas"
FORBIDDEN = {"django", "random", "time", "datetime", "socket", "urllib", "http", "games.models"}


def test_the_registry_finds_vegas() -> None:
    engine: GameEngine = ENGINE  # mypy checks VegasEngine against the protocol here
    assert registry.get_engine("vegas") is engine
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == (
        "vegas",
        "Vegas",
        2,
        5,
    )
    assert set(engine.bots) == {"random", "greedy"}


def test_the_engine_imports_nothing_impure() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root not in FORBIDDEN and name not in FORBIDDEN, f"{path.name}: {name}"
