"""``legal_commands``: every command a seat may submit now, for forms and bots.

The list is finite: trades and preferences (open-ended) are left out; a casino is named by
its first lot in board order; when all 12 dice are on the board, build and sprawl come once
per die that could move.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice, permutations
from typing import Any

from games.engines.base import State

from .board import (
    COMPANIES,
    DICE_PER_PLAYER,
    GAMBLE_PER_TILE,
    LOTS,
    REMODEL_PRICE,
    RISER_PRICE,
    TILES_PER_COMPANY,
    in_play,
)
from .casinos import boss, casinos, company, height, neighbours, points
from .commands import (
    Build,
    Command,
    End,
    Gamble,
    LayOff,
    Move,
    Place,
    Raise,
    Remodel,
    Reorganize,
    Sprawl,
)
from .decisions import automatic_answer, pending_for
from .state import OWNER, PIP, dice_on_board, max_height, tiles_of

MAX_PLACINGS = 24


def legal_commands(state: State, seat: int) -> Iterator[Command]:
    if state["over"] is not None:
        return
    decision = pending_for(state, seat)
    if decision is not None:
        yield from answers(state, decision)
        return
    if state["pending"] or seat != state["turn"]:
        return
    yield from actions(state, seat)
    yield End()


def answers(state: State, decision: dict[str, Any]) -> Iterator[Command]:
    seat = decision["seat"]
    if decision["kind"] == "move":
        if decision["piece"] == "die":
            lots = [lot for lot, tile in state["tiles"].items() if tile[OWNER] == seat]
        else:
            lots = [lot for lot, owner in state["markers"].items() if owner == seat]
        for lot in sorted(lots):
            yield Move(decision["piece"], lot)
    elif decision["kind"] == "place":
        auto = automatic_answer(state, decision)
        yield auto
        lots = decision["lots"]
        values = [state["tiles"][lot][PIP] for lot in lots]
        seen = {auto}
        for order in islice(permutations(values), 20 * MAX_PLACINGS):
            option = Place(tuple(zip(lots, order, strict=True)))
            if option not in seen and len(seen) <= MAX_PLACINGS:
                seen.add(option)
                yield option
    else:
        yield LayOff(False)
        yield LayOff(True)


def actions(state: State, seat: int, plain: bool = False) -> Iterator[Command]:
    """Every action ``seat`` can afford now. ``plain`` (for the greedy bot) leaves out the
    ones that roll dice (reorganize, gamble) and those that move a die."""
    money = state["money"][seat]
    free = {c: TILES_PER_COMPANY - tiles_of(state, c) for c in COMPANIES}
    movers: list[str | None] = [None]
    if dice_on_board(state, seat) >= DICE_PER_PLAYER:
        movers = (
            []
            if plain
            else sorted(lot for lot, tile in state["tiles"].items() if tile[OWNER] == seat)
        )
    for lot, owner in sorted(state["markers"].items()):
        if owner == seat and LOTS[lot].price <= money:
            for name in COMPANIES:
                if free[name] > 0:
                    for moving in movers:
                        yield Build(lot, name, moving)
    for casino in casinos(state):
        yield from casino_actions(state, seat, casino, free, movers, plain)


def casino_actions(
    state: State,
    seat: int,
    casino: list[str],
    free: dict[str, int],
    movers: list[str | None],
    plain: bool = False,
) -> Iterator[Command]:
    money, tiles, first = state["money"][seat], state["tiles"], casino[0]
    chief, name, size = boss(state, casino), company(state, casino), len(casino)
    if chief == seat:
        riser = RISER_PRICE * (height(state, casino) - 1)
        for lot in sorted(neighbours(casino)):
            cost = 2 * LOTS[lot].price + riser
            if _open(state, lot) and free[name] > 0 and cost <= money:
                for moving in movers:
                    yield Sprawl(lot, first, moving)
        for other in COMPANIES:
            if other != name and free[other] >= size and REMODEL_PRICE * size <= money:
                yield Remodel(first, other)
        if height(state, casino) < max_height(state) and RISER_PRICE * size <= money:
            yield Raise(first)
    if plain:
        return
    dice = [lot for lot in casino if tiles[lot][OWNER] is not None]
    cost = sum(tiles[lot][PIP] for lot in dice)
    mine = any(tiles[lot][OWNER] == seat for lot in dice)
    if mine and not set(state["reorged"]).intersection(casino) and cost <= money:
        yield Reorganize(first)
    if chief is not None and chief != seat and not state["gambles"]:
        for amount in range(1, min(GAMBLE_PER_TILE * points(state, casino), money) + 1):
            yield Gamble(first, amount)


def _open(state: State, lot: str) -> bool:
    """An empty, unowned lot in play."""
    return (
        lot not in state["tiles"] and lot not in state["markers"] and in_play(lot, state["players"])
    )
