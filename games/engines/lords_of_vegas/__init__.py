"""Lords of Vegas (2024 and classic editions) as a pure rules engine.

``ENGINE`` implements the platform's :class:`~games.engines.base.GameEngine` protocol. Also
exported: the command classes, the position format (``to_position``/``from_position``) and
the screen-reader description of a view (``describe_view``) and of one lot
(``describe_lot``).
"""

from .commands import (
    Build,
    Do,
    End,
    Gamble,
    GiveDie,
    GiveLot,
    LayOff,
    Move,
    Pay,
    Place,
    Prefer,
    Raise,
    Remodel,
    Reorganize,
    Sprawl,
    Trade,
)
from .engine import ENGINE, LordsOfVegas
from .position import PositionError, from_position, to_position
from .render import render_text
from .views import describe_decision, describe_lot, describe_view, view

__all__ = [
    "ENGINE",
    "Build",
    "Do",
    "End",
    "Gamble",
    "GiveDie",
    "GiveLot",
    "LayOff",
    "LordsOfVegas",
    "Move",
    "Pay",
    "Place",
    "PositionError",
    "Prefer",
    "Raise",
    "Remodel",
    "Reorganize",
    "Sprawl",
    "Trade",
    "describe_decision",
    "describe_lot",
    "describe_view",
    "from_position",
    "render_text",
    "to_position",
    "view",
]
