"""``check``: every invariant of a state that the rules guarantee, as sentences when broken.

The self-play command and the property tests run it after every command, so a rule bug shows
up as a sentence rather than as a strange game many turns later.
"""

from __future__ import annotations

from collections import Counter

from games.engines.base import State

from .board import (
    CARDS,
    COMPANIES,
    DICE_PER_PLAYER,
    MARKERS_PER_PLAYER,
    TILES_PER_COMPANY,
    TRACK_INDEX,
    in_play,
)
from .casinos import casinos, company, height, tied_dice
from .state import OWNER, PIP, max_height


def check(state: State) -> list[str]:
    problems: list[str] = []
    problems += _players(state)
    problems += _board(state)
    problems += _casinos(state)
    problems += _cards(state)
    problems += _turn(state)
    return problems


def _players(state: State) -> list[str]:
    problems = []
    dice = Counter(tile[OWNER] for tile in state["tiles"].values() if tile[OWNER] is not None)
    markers = Counter(state["markers"].values())
    for seat in range(state["players"]):
        name = str(state["colours"][seat]).capitalize()  # for developers: plain English
        if state["money"][seat] < 0:
            problems.append(f"{name} has negative money (${state['money'][seat]}m)")
        if dice[seat] > DICE_PER_PLAYER:
            problems.append(f"{name} has {dice[seat]} dice on the board (at most 12)")
        if markers[seat] > MARKERS_PER_PLAYER:
            problems.append(f"{name} has {markers[seat]} lot markers on the board (at most 10)")
        if state["score"][seat] not in TRACK_INDEX:
            problems.append(f"{name}'s airplane is on {state['score'][seat]}, not a track space")
    return problems


def _board(state: State) -> list[str]:
    problems = []
    per_company = Counter(tile[0] for tile in state["tiles"].values())
    for name, count in per_company.items():
        if name not in COMPANIES:
            problems.append(f"a tile belongs to no company ({name!r})")
        elif count > TILES_PER_COMPANY:
            problems.append(f"{count} {name} tiles are on the board (at most 9)")
    for lot, tile in state["tiles"].items():
        if lot in state["markers"]:
            problems.append(f"{lot} has both a tile and a lot marker")
        if not 1 <= tile[1] <= max_height(state):
            problems.append(f"the tile on {lot} is {tile[1]} high")
        if (tile[OWNER] is None) != (tile[PIP] is None) or tile[PIP] not in (None, *range(1, 7)):
            problems.append(f"the die on {lot} is broken: {tile[OWNER]!r} {tile[PIP]!r}")
        if not in_play(lot, state["players"]):
            problems.append(f"{lot} is out of play in a two-player game but has a tile")
    for lot in state["markers"]:
        if not in_play(lot, state["players"]):
            problems.append(f"{lot} is out of play in a two-player game but has a marker")
    return problems


def _casinos(state: State) -> list[str]:
    problems = []
    for casino in casinos(state):
        tiles = [state["tiles"][lot] for lot in casino]
        if any(tile[0] != company(state, casino) for tile in tiles):
            problems.append(f"the casino at {casino[0]} mixes companies")
        if state["edition"] == "2024" and any(t[1] != height(state, casino) for t in tiles):
            problems.append(f"the casino at {casino[0]} mixes heights")
        if tied_dice(state, casino):
            problems.append(f"the casino at {casino[0]} has tied highest dice of two players")
    return problems


def _cards(state: State) -> list[str]:
    held = [*state["deck"], *state["discard"]]
    if state["drawn"] is not None:
        held.append(state["drawn"])
    if sorted(held) != sorted(CARDS):
        counts = Counter(held)
        extra = sorted(card for card, n in counts.items() if n > 1)
        missing = sorted(set(CARDS) - set(held))
        return [f"the 49 cards are not all there once (missing {missing}, doubled {extra})"]
    return []


def _turn(state: State) -> list[str]:
    problems = []
    if state["gambles"] > 1:
        problems.append(f"{state['gambles']} gambles this turn (at most 1)")
    reorged: Counter[str] = Counter(state["reorged"])
    repeated = [lot for lot, n in reorged.items() if n > 1]
    if repeated:
        problems.append(f"dice reorganized twice this turn: {', '.join(sorted(repeated))}")
    if not 0 <= state["turn"] < state["players"]:
        problems.append(f"the active seat {state['turn']} is not a seat")
    return problems
