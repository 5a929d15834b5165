"""Casinos: groups of tiles computed from the board, their bosses, and tie rerolls.

The state stores tiles only; a casino is always recomputed as a connected group of tiles of
one company (2024: and one height). That is faithful because casinos never split: every
action changes a whole casino (remodel, raise) or adds a tile (build, sprawl), so two tiles
that once joined keep the same company and height for ever.
"""

from __future__ import annotations

from games.engines.base import Event, State
from games.engines.rng import Rng

from .board import ADJACENT, LOT_NAMES, LOT_ORDER, LOTS
from .state import COMPANY, HEIGHT, OWNER, PIP

Casino = list[str]  # its lots, in board order


def _key(state: State, lot: str) -> tuple[str, int]:
    """What two adjacent tiles must share to be one casino."""
    tile = state["tiles"][lot]
    height = tile[HEIGHT] if state["edition"] == "2024" else 1
    return tile[COMPANY], height


def casinos(state: State, only: str | None = None) -> list[Casino]:
    """Every casino on the board, each a list of lots, in board order; with ``only`` (a
    company), just that company's casinos (the same lists: a casino is of one company).

    This runs several times per command (and per trial move of the greedy bot), so it is a
    one-pass labelling of the tiles in board order: each tile looks only at its neighbours
    above and to its left, which were labelled before it.
    """
    tiles = state["tiles"]
    if not tiles:
        return []
    by_height = state["edition"] == "2024"
    if only is None:
        lots = list(tiles)
    else:
        lots = [lot for lot, tile in tiles.items() if tile[COMPANY] == only]
    if len(lots) < 2:
        return [lots] if lots else []
    lots.sort(key=LOT_ORDER.__getitem__)
    # ``label`` holds only tiles labelled so far, all earlier in board order (and, with
    # ``only``, of that company): a neighbour missing from it cannot join this tile.
    label: dict[str, list[str]] = {}
    find = label.get
    groups: list[list[str]] = []
    merged = False
    for lot in lots:
        mine: list[str] | None = None
        for other in _EARLIER[lot]:
            group = find(other)
            if group is None or group is mine:
                continue
            tile, near = tiles[lot], tiles[other]
            if near[COMPANY] != tile[COMPANY] or (by_height and near[HEIGHT] != tile[HEIGHT]):
                continue
            if mine is None:
                mine = group
            else:  # this tile joins two groups: fold one into the other
                merged = True
                mine.extend(group)
                for moved in group:
                    label[moved] = mine
                group.clear()
        if mine is None:
            mine = [lot]
            groups.append(mine)
        else:
            mine.append(lot)
        label[lot] = mine
    if not merged:
        return groups
    found = [sorted(group, key=LOT_ORDER.__getitem__) for group in groups if group]
    found.sort(key=lambda group: LOT_ORDER[group[0]])
    return found


_EARLIER: dict[str, tuple[str, ...]] = {
    lot: tuple(other for other in ADJACENT[lot] if LOT_ORDER[other] < LOT_ORDER[lot])
    for lot in LOT_NAMES
}
"""Each lot's neighbours that come before it in board order (above it and to its left)."""


def _flood(state: State, start: str) -> Casino:
    tiles = state["tiles"]
    key = _key(state, start)
    group = {start}
    todo = [start]
    while todo:
        for other in ADJACENT[todo.pop()]:
            if other in tiles and other not in group and _key(state, other) == key:
                group.add(other)
                todo.append(other)
    return sorted(group, key=LOT_ORDER.__getitem__)


def casino_at(state: State, lot: str) -> Casino | None:
    """The casino that has a tile on ``lot``, or None for a lot without a tile."""
    return _flood(state, lot) if lot in state["tiles"] else None


def boss(state: State, casino: Casino) -> int | None:
    """The owner of the single highest die; None without dice or while tied."""
    tiles = state["tiles"]
    chief: int | None = None
    if len(casino) == 1:
        chief = tiles[casino[0]][OWNER]
        return chief
    best, tied = 0, False
    for lot in casino:
        tile = tiles[lot]
        owner = tile[OWNER]
        if owner is None:
            continue
        pip = tile[PIP]
        if pip > best:
            best, chief, tied = pip, owner, False
        elif pip == best and owner != chief:
            tied = True
    return None if tied else chief


def points(state: State, casino: Casino) -> int:
    """Points a casino scores: one per tile, risers included."""
    tiles = state["tiles"]
    total = 0
    for lot in casino:
        total += int(tiles[lot][HEIGHT])
    return total


def height(state: State, casino: Casino) -> int:
    return int(state["tiles"][casino[0]][HEIGHT])


def company(state: State, casino: Casino) -> str:
    return str(state["tiles"][casino[0]][COMPANY])


def touches_strip(casino: Casino) -> bool:
    return any(LOTS[lot].strip for lot in casino)


def neighbours(casino: Casino) -> set[str]:
    """Lots next to a casino (outside it)."""
    inside = set(casino)
    return {other for lot in casino for other in ADJACENT[lot] if other not in inside}


def tied_dice(state: State, casino: Casino) -> list[str]:
    """Lots of the highest dice when they belong to two or more players, else []."""
    tiles = state["tiles"]
    dice = [lot for lot in casino if tiles[lot][OWNER] is not None]
    if not dice:
        return []
    best = max(tiles[lot][PIP] for lot in dice)
    top = [lot for lot in dice if tiles[lot][PIP] == best]
    return top if len({tiles[lot][OWNER] for lot in top}) > 1 else []


def resolve_ties(
    state: State, rng: Rng, events: list[Event], found: list[Casino] | None = None
) -> None:
    """Reroll, free, the tied highest dice of every casino until one player is highest.

    Rerolls never change which tiles form a casino, so one pass over the casinos settles
    every cascade.
    """
    tiles = state["tiles"]
    for casino in casinos(state) if found is None else found:
        if len(casino) == 1:
            continue  # one die cannot tie
        tied = tied_dice(state, casino)
        while tied:
            rolls = []
            for lot in tied:
                tiles[lot][PIP] = rng.die()
                rolls.append({"lot": lot, "seat": tiles[lot][OWNER], "value": tiles[lot][PIP]})
            events.append({"type": "tie_reroll", "casino": casino, "rolls": rolls})
            tied = tied_dice(state, casino)


Snapshot = dict[str, tuple[int, int | None]]  # lot -> (casino number, boss)


def snapshot(state: State) -> Snapshot:
    """Which casino every tile belongs to and who its boss is, to report changes later."""
    tiles = state["tiles"]
    shot: Snapshot = {}
    for number, casino in enumerate(casinos(state)):
        if len(casino) == 1:  # most casinos: the boss is the die's owner
            lot = casino[0]
            shot[lot] = (number, tiles[lot][OWNER])
            continue
        chief = boss(state, casino)
        for lot in casino:
            shot[lot] = (number, chief)
    return shot


def settle(
    state: State,
    before: Snapshot,
    rng: Rng,
    events: list[Event],
    after: list[Casino] | None = None,
) -> None:
    """What follows every action, take-over and trade step: report merges, reroll ties,
    report new bosses (``after``: the casinos now, when the caller has them). A one-tile
    casino merged nothing and cannot tie, and its boss is its die's owner: the same test as
    for the others, on one value instead of sets."""
    if after is None:
        after = casinos(state)
    for casino in after:
        if len(casino) == 1:
            continue
        parts = {before[lot][0] for lot in casino if lot in before}
        if len(parts) > 1:
            events.append(
                {
                    "type": "merge",
                    "casino": casino,
                    "company": company(state, casino),
                    "height": height(state, casino),
                }
            )
    resolve_ties(state, rng, events, after)
    tiles = state["tiles"]
    for casino in after:
        if len(casino) == 1:
            chief = tiles[casino[0]][OWNER]
            was = before.get(casino[0])
            # previous = {was's boss} or {}: it differs from {chief} (and one of them is a
            # seat) exactly when the one value differs, or, with none, when chief is a seat.
            if (chief is not None) if was is None else (was[1] != chief):
                events.append({"type": "boss", "casino": casino, "seat": chief})
            continue
        chief = boss(state, casino)
        previous = {before[lot][1] for lot in casino if lot in before}
        if previous != {chief} and (chief is not None or previous - {None}):
            events.append({"type": "boss", "casino": casino, "seat": chief})
