"""``legal_commands``: every command a seat may submit now, for forms and bots.

The list is finite: trades and preferences (open-ended) are left out; a casino is named by
its first lot in board order; when all 12 dice are on the board, build and sprawl come once
per die that could move. ``legal_of`` gives one verb's part of that list without building
the rest (a bet at a tall casino alone is up to a few hundred commands).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice, permutations
from typing import Any

from games.engines.base import State

from .board import (
    ADJACENT,
    COMPANIES,
    DICE_PER_PLAYER,
    GAMBLE_PER_TILE,
    LOTS,
    REMODEL_PRICE,
    RISER_PRICE,
    TILES_PER_COMPANY,
    in_play,
)
from .casinos import casinos, neighbours
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
from .state import COMPANY, HEIGHT, OWNER, PIP, max_height

MAX_PLACINGS = 24


def legal_commands(state: State, seat: int) -> list[Command]:
    """The whole list, built directly (this is what a bot or form calls on every turn)."""
    if state["over"] is not None:
        return []
    decision = pending_for(state, seat)
    if decision is not None:
        return list(answers(state, decision))
    if state["pending"] or seat != state["turn"]:
        return []
    found = actions(state, seat)
    found.append(END)
    return found


END = End()

VERBS = ("build", "sprawl", "remodel", "raise", "reorganize", "gamble", "end")
"""The verbs :func:`legal_of` answers for; decisions' verbs ("move", "place", "layoff") too."""


def legal_of(state: State, seat: int, verb: str) -> list[Command]:
    """The commands of one verb that :func:`legal_commands` would list, in its order, without
    building the others: what a bot or a form asks ("where can I build?") costs only that."""
    if state["over"] is not None:
        return []
    decision = pending_for(state, seat)
    if decision is not None:
        return [cmd for cmd in answers(state, decision) if cmd.kind == verb]
    if state["pending"] or seat != state["turn"] or verb not in VERBS:
        return []
    if verb == "end":
        return [END]
    return actions(state, seat, only=verb)


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


def actions(state: State, seat: int, plain: bool = False, only: str | None = None) -> list[Command]:
    """Every action ``seat`` can afford now. ``plain`` (for the greedy bot) leaves out the
    ones that roll dice (reorganize, gamble) and those that move a die; ``only`` (a verb)
    lists that verb's actions alone.

    Builds come first (by lot, then company, then moving die), then each casino's sprawls,
    remodels, raise, reorganize and gambles, casinos in board order. The command objects are
    frozen, so equal ones are made once and shared (see :func:`_command`)."""
    money = state["money"][seat]
    tiles = state["tiles"]
    found: list[Command] = []
    if not tiles:  # early on: every company free, no casino, no die to move
        if only is None or only == "build":
            _add_builds(state, seat, money, COMPANIES, STAYS, found)
        return found
    free = dict(ALL_FREE)
    for tile in tiles.values():
        free[tile[COMPANY]] -= 1
    movers: list[str | None] = STAYS
    if len(tiles) >= DICE_PER_PLAYER and (
        [tile[OWNER] for tile in tiles.values()].count(seat) >= DICE_PER_PLAYER
    ):
        movers = []
        if not plain:
            movers.extend(sorted([lot for lot, tile in tiles.items() if tile[OWNER] == seat]))
    if only is not None and only != "build":
        for casino in casinos(state):
            casino_actions(state, seat, casino, free, movers, plain, found, only)
        return found
    open_companies = tuple([name for name in COMPANIES if free[name] > 0])
    _add_builds(state, seat, money, open_companies, movers, found)
    if only is None:
        for casino in casinos(state):
            casino_actions(state, seat, casino, free, movers, plain, found)
    return found


ALL_FREE = dict.fromkeys(COMPANIES, TILES_PER_COMPANY)
"""Tiles left per company on an empty board (copied, never changed)."""

STAYS: list[str | None] = [None]
"""The movers when no die has to move (read, never changed)."""


def _add_builds(
    state: State,
    seat: int,
    money: int,
    open_companies: tuple[str, ...],
    movers: list[str | None],
    found: list[Command],
) -> None:
    """Builds on the seat's parking lots it can pay for, by lot, company, moving die."""
    markers = state["markers"]
    if not markers:
        return
    mine = [lot for lot, owner in markers.items() if owner == seat]
    mine.sort()
    stays = movers == STAYS  # no die moves: the builds of a lot are one shared row
    rows = _BUILDS.get(open_companies)
    if rows is None:
        rows = _BUILDS[open_companies] = {}
    for lot in mine:
        if LOTS[lot].price <= money:
            if stays:
                row = rows.get(lot)
                if row is None:
                    row = rows[lot] = tuple(
                        _command(Build, lot, name, None) for name in open_companies
                    )
                found.extend(row)
            else:
                found.extend(
                    _command(Build, lot, name, moving)
                    for name in open_companies
                    for moving in movers
                )


def casino_actions(
    state: State,
    seat: int,
    casino: list[str],
    free: dict[str, int],
    movers: list[str | None],
    plain: bool,
    found: list[Command],
    only: str | None = None,
) -> None:
    """Append the actions of ``seat`` at one casino to ``found``: sprawls, remodels, raise
    (for its boss), reorganize, gambles; with ``only``, that verb's alone."""
    money, tiles, first, size = state["money"][seat], state["tiles"], casino[0], len(casino)
    top = tiles[first]
    name, tall = top[COMPANY], int(top[HEIGHT])
    # One pass for what the rules ask of the casino: its boss (as :func:`.casinos.boss`
    # finds it), its points, the reorganize price and whether ``seat`` has a die there.
    chief: int | None
    if size == 1:  # most casinos: the boss is the die's owner
        chief = top[OWNER]
        score, cost, mine = tall, (0 if chief is None else top[PIP]), chief == seat
    else:
        chief, score, cost, mine = _survey(tiles, casino, seat)
    if chief == seat:
        riser = RISER_PRICE * (tall - 1)
        if free[name] > 0 and only in (None, "sprawl"):
            around = _AROUND[first] if size == 1 else sorted(neighbours(casino))
            markers, players = state["markers"], state["players"]
            for lot in around:
                if (
                    2 * LOTS[lot].price + riser <= money
                    and lot not in tiles
                    and lot not in markers
                    and (players > 2 or in_play(lot, players))
                ):  # an empty, unowned lot in play (see :func:`_open`)
                    found.extend(_command(Sprawl, lot, first, moving) for moving in movers)
        if REMODEL_PRICE * size <= money and only in (None, "remodel"):
            for other in COMPANIES:
                if other != name and free[other] >= size:
                    found.append(_command(Remodel, first, other))
        if tall < max_height(state) and RISER_PRICE * size <= money and only in (None, "raise"):
            found.append(_of_lot(_RAISES, Raise, first))
    if plain:
        return
    done = state["reorged"]
    if (
        mine
        and cost <= money
        and only in (None, "reorganize")
        and not (done and not set(done).isdisjoint(casino))
    ):
        found.append(_of_lot(_REORGANIZES, Reorganize, first))
    if chief is not None and chief != seat and not state["gambles"] and only in (None, "gamble"):
        found.extend(_gambles(first, min(GAMBLE_PER_TILE * score, money)))


def _survey(
    tiles: dict[str, Any], casino: list[str], seat: int
) -> tuple[int | None, int, int, bool]:
    """A casino of two tiles or more: its boss, points, the sum of its dice (the reorganize
    price) and whether ``seat`` has a die there."""
    chief: int | None = None
    best = cost = score = 0
    tied = mine = False
    for lot in casino:
        tile = tiles[lot]
        score += int(tile[HEIGHT])
        owner = tile[OWNER]
        if owner is None:
            continue
        pip = tile[PIP]
        cost += pip
        mine = mine or owner == seat
        if pip > best:
            best, chief, tied = pip, owner, False
        elif pip == best and owner != chief:
            tied = True
    return (None if tied else chief), score, cost, mine


_AROUND: dict[str, list[str]] = {lot: sorted(near) for lot, near in ADJACENT.items()}
"""A one-tile casino's neighbours, sorted (as :func:`.casinos.neighbours` then ``sorted``)."""


_SHARED: dict[tuple[Any, ...], Command] = {}
"""Command objects made once: frozen dataclasses, so sharing them is safe (every caller still
gets a list of its own). Bounded by the board: one object per lot, company, moving die,
casino and bet a game can produce (tens of thousands at the very most)."""


def _command(kind: type[Command], *fields: Any) -> Command:
    key = (kind, *fields)
    command = _SHARED.get(key)
    if command is None:
        command = _SHARED[key] = kind(*fields)
    return command


_RAISES: dict[str, Command] = {}
_REORGANIZES: dict[str, Command] = {}


def _of_lot(table: dict[str, Command], kind: type[Command], lot: str) -> Command:
    """:func:`_command` for a command named by its lot alone, looked up by the lot."""
    command = table.get(lot)
    if command is None:
        command = table[lot] = _command(kind, lot)
    return command


_BUILDS: dict[tuple[str, ...], dict[str, tuple[Command, ...]]] = {}
"""Open companies -> lot -> the builds on that lot with each of them, no die moving."""


_GAMBLES: dict[str, tuple[Command, ...]] = {}


def _gambles(lot: str, most: int) -> tuple[Command, ...]:
    """Bets of $1m to ``most`` at the casino named by ``lot``: a slice of one row per lot."""
    row = _GAMBLES.get(lot, ())
    if len(row) < most:
        row = _GAMBLES[lot] = row + tuple(
            _command(Gamble, lot, amount) for amount in range(len(row) + 1, most + 1)
        )
    return row[:most] if most > 0 else ()


def _open(state: State, lot: str) -> bool:
    """An empty, unowned lot in play."""
    return (
        lot not in state["tiles"] and lot not in state["markers"] and in_play(lot, state["players"])
    )
