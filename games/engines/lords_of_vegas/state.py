"""The game state: a compact JSON dict, and the small helpers that read and copy it.

Layout (every key always present)::

    seed, n          secret seed (hex) and the number of commands applied
    edition, players, colours   "2024"|"classic", the player count, each seat's colour
    turn             the active seat
    money, score     per seat: $m and the track space the airplane is on
    markers          {lot: seat} parking lots
    tiles            {lot: [company, height, owner or None, pip or None]}
    deck, discard    card names, top of the deck first; discards in the order drawn
    drawn            the card in the active player's hand while step 1 waits, else None
    gambles, acts    gambles and actions taken this turn
    reorged          lots whose dice were reorganized this turn
    pending          decisions the game waits on (see :mod:`.decisions`)
    prefs            per seat, the standing preferences that differ from the defaults
    over             None while the game runs, else why it ended

A tile is a list rather than a dict to keep a late-game state small (well under 16 KB).
"""

from __future__ import annotations

from operator import countOf
from typing import Any

from games.engines.base import State
from games.engines.text import Text

from .commands import PREFERENCES
from .words import NOBODY, player

Tile = list[Any]  # [company, height, owner | None, pip | None]

COMPANY, HEIGHT, OWNER, PIP = 0, 1, 2, 3


def copy_state(state: State) -> State:
    """A copy deep enough that changing it never touches ``state`` (faster than deepcopy,
    because we know the layout)."""
    new = dict(state)
    new["money"] = list(state["money"])
    new["score"] = list(state["score"])
    new["colours"] = list(state["colours"])
    new["markers"] = dict(state["markers"])
    tiles = state["tiles"]  # empty early on: no comprehension to run then
    new["tiles"] = {lot: tile.copy() for lot, tile in tiles.items()} if tiles else {}
    new["deck"] = list(state["deck"])
    new["discard"] = list(state["discard"])
    new["reorged"] = list(state["reorged"])
    pending = state["pending"]  # mostly empty
    new["pending"] = [_copy_decision(d) for d in pending] if pending else []
    new["prefs"] = list(map(dict.copy, state["prefs"]))
    return new


def _copy_decision(decision: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in decision.items()}


def empty_state(edition: str, colours: list[str], seed: str) -> State:
    """A board with nothing on it, before the deal."""
    players = len(colours)
    return {
        "seed": seed,
        "n": 0,
        "edition": edition,
        "players": players,
        "colours": list(colours),
        "turn": 0,
        "money": [0] * players,
        "score": [0] * players,
        "markers": {},
        "tiles": {},
        "deck": [],
        "discard": [],
        "drawn": None,
        "gambles": 0,
        "acts": 0,
        "reorged": [],
        "pending": [],
        "prefs": [{} for _seat in range(players)],
        "over": None,
    }


def colour_name(state: State, seat: int | None) -> Text | str:
    """How the books call a seat: its colour as a name ("Red"); "nobody" for None."""
    return NOBODY if seat is None else player(str(state["colours"][seat]))


def seat_of(state: State, colour: str) -> int | None:
    """The seat playing ``colour``, or None if no one in this game plays it."""
    try:
        return int(state["colours"].index(colour))
    except ValueError:
        return None


def dice_on_board(state: State, seat: int) -> int:
    return sum(1 for tile in state["tiles"].values() if tile[OWNER] == seat)


def markers_on_board(state: State, seat: int) -> int:
    return countOf(state["markers"].values(), seat)


def tiles_of(state: State, company: str) -> int:
    """How many tiles of ``company`` are on the board (9 at most)."""
    return sum(1 for tile in state["tiles"].values() if tile[COMPANY] == company)


def max_height(state: State) -> int:
    """2024: a casino is at most as tall as the number of players; classic: no risers."""
    return int(state["players"]) if state["edition"] == "2024" else 1


def pref(state: State, seat: int, topic: str) -> str:
    """A seat's standing preference, the default when it never set one."""
    value: str = state["prefs"][seat].get(topic, PREFERENCES[topic][0])
    return value
