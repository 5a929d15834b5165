"""The fixed data of the game: lots, blocks, adjacency, cards, companies, colours, the track.

Everything here is read once from the package's own copy of the board table
(``data/lords_of_vegas_board.csv``) and never changes, so the rest of the engine can treat
it as constants.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

COMPANIES: tuple[str, ...] = ("albion", "sphinx", "vega", "tivoli", "pioneer")
"""The five development companies, in the order the books list them."""

COMPANY_ALIASES: dict[str, str] = {
    "albion": "albion",
    "purple": "albion",
    "sphinx": "sphinx",
    "gold": "sphinx",
    "vega": "vega",
    "green": "vega",
    "aqua": "vega",
    "tivoli": "tivoli",
    "silver": "tivoli",
    "pioneer": "pioneer",
    "brown": "pioneer",
}
"""Company names and tile colours of both editions -> company."""

COMPANY_COLOUR: dict[str, dict[str, str]] = {
    "2024": {
        "albion": "purple",
        "sphinx": "gold",
        "vega": "green",
        "tivoli": "silver",
        "pioneer": "brown",
    },
    "classic": {
        "albion": "purple",
        "sphinx": "gold",
        "vega": "aqua",
        "tivoli": "silver",
        "pioneer": "brown",
    },
}

EDITIONS: tuple[str, ...] = ("2024", "classic")
PLAYER_COLOURS: dict[str, tuple[str, ...]] = {
    "2024": ("black", "blue", "green", "purple", "red", "yellow"),
    "classic": ("blue", "green", "red", "yellow"),
}
ALL_COLOURS: tuple[str, ...] = PLAYER_COLOURS["2024"]

TRACK: tuple[int, ...] = (
    *range(0, 9),
    *(10, 12, 14, 16, 18, 20, 23, 26, 29, 32, 36, 40, 44, 49, 54, 60, 66, 73, 81, 90),
)
"""The spaces of the scoring track; a step needs the whole gap to the next space."""
TRACK_INDEX: dict[int, int] = {space: i for i, space in enumerate(TRACK)}
TRACK_END = TRACK[-1]

TILES_PER_COMPANY = 9
DICE_PER_PLAYER = 12
MARKERS_PER_PLAYER = 10
START_MONEY = 20
RISER_PRICE = 15
REMODEL_PRICE = 5
GAMBLE_PER_TILE = 5

GAME_OVER = "GO"
"""The Game Over card: a Strip card that names no lot."""
STRIP = "strip"


@dataclass(frozen=True)
class Lot:
    """One space of the board, as printed."""

    name: str
    block: str
    row: int
    col: int
    grid_row: int
    grid_col: int
    price: int
    die: int
    card: str  # a company, or "strip"
    strip: bool


def _load() -> dict[str, Lot]:
    text = resources.files(__package__).joinpath("data/lords_of_vegas_board.csv").read_text()
    lots = {}
    for row in csv.DictReader(io.StringIO(text)):
        lots[row["lot"]] = Lot(
            name=row["lot"],
            block=row["block"],
            row=int(row["row_in_block"]),
            col=int(row["col_in_block"]),
            grid_row=int(row["grid_row"]),
            grid_col=int(row["grid_col"]),
            price=int(row["price_m"]),
            die=int(row["printed_die"]),
            card=row["card"],
            strip=row["touches_strip"] == "yes",
        )
    return lots


LOTS: dict[str, Lot] = _load()
LOT_NAMES: tuple[str, ...] = tuple(LOTS)
LOT_ORDER: dict[str, int] = {name: i for i, name in enumerate(LOT_NAMES)}


def _neighbours(lot: Lot) -> tuple[str, ...]:
    """Orthogonal neighbours inside the block: streets separate blocks."""
    return tuple(
        other.name
        for other in LOTS.values()
        if other.block == lot.block and abs(other.row - lot.row) + abs(other.col - lot.col) == 1
    )


ADJACENT: dict[str, tuple[str, ...]] = {name: _neighbours(lot) for name, lot in LOTS.items()}

CARDS: tuple[str, ...] = (*LOT_NAMES, GAME_OVER)
"""All 49 property cards: one per lot, and the Game Over card."""


def card_pays(card: str) -> str:
    """What a card pays: a company, or ``"strip"`` (the Game Over card pays the Strip)."""
    return STRIP if card == GAME_OVER else LOTS[card].card


def in_play(lot: str, players: int) -> bool:
    """Two players leave the F block out of play."""
    return players > 2 or LOTS[lot].block != "F"


def advance(position: int, points: int) -> int:
    """Where a marker on ``position`` lands after scoring ``points`` for one casino.

    Each step needs the whole gap to the next space; points that cannot pay for the next gap
    are lost (8 + 1 stays on 8, 8 + 3 reaches 10).
    """
    i = TRACK_INDEX[position]
    while i + 1 < len(TRACK) and TRACK[i + 1] - TRACK[i] <= points:
        points -= TRACK[i + 1] - TRACK[i]
        i += 1
    return TRACK[i]
