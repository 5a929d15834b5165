"""The six actions of step 6: build, sprawl, remodel, reorganize, raise, gamble.

Each action first checks every condition of the books (raising :class:`IllegalCommand` with
the input and the reason), and only then changes the state, so a refused action changes
nothing: the trade code relies on that to stop a trade cleanly at the step that fails.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engines.base import Event, IllegalCommand, State
from games.engines.rng import Rng
from games.engines.text import Text, _, ngettext

from .board import (
    DICE_PER_PLAYER,
    GAMBLE_PER_TILE,
    LOT_ORDER,
    LOTS,
    REMODEL_PRICE,
    RISER_PRICE,
    TILES_PER_COMPANY,
    in_play,
)
from .casinos import (
    Casino,
    Snapshot,
    boss,
    casino_at,
    casinos,
    company,
    height,
    neighbours,
    points,
    settle,
    snapshot,
)
from .commands import Build, Gamble, Raise, Remodel, Reorganize, Sprawl
from .decisions import arrange_dice, layoff_or_ask
from .state import OWNER, PIP, colour_name, dice_on_board, max_height, pref, tiles_of
from .words import company_with_colour, money


def company_name(state: State, name: str) -> Text:
    """ "Sphinx (gold)": the company and its tile colour in this edition."""
    return company_with_colour(state["edition"], name)


def _money(state: State, seat: int, cost: int, refusal: Callable[[Text, Text], Text]) -> None:
    """``refusal(cost, money)`` says what costs too much, as one whole sentence."""
    if state["money"][seat] < cost:
        raise IllegalCommand(refusal(money(cost), money(state["money"][seat])))


def _casino(state: State, lot: str, refusal: Text) -> Casino:
    casino = casino_at(state, lot)
    if casino is None:
        raise IllegalCommand(refusal)
    return casino


def _boss_only(state: State, seat: int, casino: Casino, lot: str, verb: str) -> None:
    """Only the boss may sprawl from, remodel or raise a casino (``verb``: which)."""
    chief = boss(state, casino)
    if chief == seat:
        return
    if chief is None:
        raise IllegalCommand(_NO_BOSS[verb](lot))
    raise IllegalCommand(_NOT_BOSS[verb](lot, colour_name(state, chief)))


_NO_BOSS: dict[str, Callable[[str], Text]] = {
    "sprawl": lambda lot: _(
        "you are not the boss of the casino at %(lot)s (it has no boss): "
        "only its boss can sprawl from it",
        lot=lot,
    ),
    "remodel": lambda lot: _(
        "you are not the boss of the casino at %(lot)s (it has no boss): "
        "only its boss can remodel it",
        lot=lot,
    ),
    "raise": lambda lot: _(
        "you are not the boss of the casino at %(lot)s (it has no boss): "
        "only its boss can raise it",
        lot=lot,
    ),
}
_NOT_BOSS: dict[str, Callable[[str, Text | str], Text]] = {
    "sprawl": lambda lot, chief: _(
        "you are not the boss of the casino at %(lot)s (%(boss)s is): "
        "only its boss can sprawl from it",
        lot=lot,
        boss=chief,
    ),
    "remodel": lambda lot, chief: _(
        "you are not the boss of the casino at %(lot)s (%(boss)s is): only its boss can remodel it",
        lot=lot,
        boss=chief,
    ),
    "raise": lambda lot, chief: _(
        "you are not the boss of the casino at %(lot)s (%(boss)s is): only its boss can raise it",
        lot=lot,
        boss=chief,
    ),
}


def _tiles_left(state: State, name: str, needed: int) -> None:
    left = TILES_PER_COMPANY - tiles_of(state, name)
    if left < needed:
        raise IllegalCommand(
            ngettext(
                "only %(left)s %(company)s tile left and this needs %(needed)s: "
                "choose another company",
                "only %(left)s %(company)s tiles left and this needs %(needed)s: "
                "choose another company",
                left,
                left=left,
                company=company_name(state, name),
                needed=needed,
            )
        )


def check_moving(state: State, seat: int, moving: str | None, target: str, command: str) -> None:
    """When all 12 dice are on the board, the command must name the die that moves."""
    free = DICE_PER_PLAYER - dice_on_board(state, seat)
    if free > 0:
        if moving is not None:
            raise IllegalCommand(
                ngettext(
                    "you still have %(count)s die off the board: leave out 'moving %(lot)s'",
                    "you still have %(count)s dice off the board: leave out 'moving %(lot)s'",
                    free,
                    count=free,
                    lot=moving,
                )
            )
        return
    if moving is None:
        raise IllegalCommand(
            ngettext(
                "all %(count)s of your dice are on the board: add 'moving <lot>' to say "
                "which of your dice moves to %(lot)s, e.g. '%(example)s'",
                "all %(count)s of your dice are on the board: add 'moving <lot>' to say "
                "which of your dice moves to %(lot)s, e.g. '%(example)s'",
                DICE_PER_PLAYER,
                count=DICE_PER_PLAYER,
                lot=target,
                example=f"{command} moving {own_dice(state, seat)[0]}",
            )
        )
    tile = state["tiles"].get(moving)
    if tile is None or tile[OWNER] != seat:
        raise IllegalCommand(
            _("%(moving)s has no die of yours to move to %(lot)s", moving=moving, lot=target)
        )


def own_dice(state: State, seat: int) -> list[str]:
    return [lot for lot, tile in state["tiles"].items() if tile[OWNER] == seat]


def take_die(state: State, seat: int, moving: str | None, target: str, events: list[Event]) -> None:
    """Lift the named die off its tile (the tile stays, with no owner)."""
    if moving is None:
        return
    tile = state["tiles"][moving]
    tile[OWNER] = tile[PIP] = None
    follow_die(state, moving, target)
    events.append({"type": "die_moved", "seat": seat, "from": moving, "to": target})


def follow_die(state: State, source: str, target: str) -> None:
    """A die that moves keeps its history: "no die may be reorganized more than once in a
    turn", wherever it goes, and the tile it leaves no longer holds a reorganized die."""
    reorged = state["reorged"]
    if source in reorged:
        reorged.remove(source)
        if target not in reorged:
            reorged.append(target)


# -- build ----------------------------------------------------------------------------------


def check_build(state: State, seat: int, cmd: Build) -> int:
    lot = cmd.lot
    if lot in state["tiles"]:
        raise IllegalCommand(
            _("%(lot)s already has a casino tile: you can only build on a lot", lot=lot)
        )
    owner = state["markers"].get(lot)
    if owner is None and not in_play(lot, state["players"]):
        raise IllegalCommand(
            _("%(lot)s is in the F block, out of play in a two-player game", lot=lot)
        )
    if owner is None:
        raise IllegalCommand(
            _("%(lot)s is not your parking lot: you can only build on your lots", lot=lot)
        )
    if owner != seat:
        raise IllegalCommand(
            _(
                "%(lot)s is owned by %(owner)s: you can only build on your own lot",
                lot=lot,
                owner=colour_name(state, owner),
            )
        )
    _tiles_left(state, cmd.company, 1)
    price = LOTS[lot].price
    _money(
        state,
        seat,
        price,
        lambda cost, have: _(
            "building on %(lot)s costs %(cost)s and you have %(money)s",
            lot=lot,
            cost=cost,
            money=have,
        ),
    )
    check_moving(state, seat, cmd.moving, lot, f"build {lot} {cmd.company}")
    return price


def build(state: State, seat: int, cmd: Build, rng: Rng, events: list[Event]) -> None:
    """Pay the lot's price, put a tile and a die showing the printed value on your lot."""
    price = check_build(state, seat, cmd)
    before = snapshot(state)
    take_die(state, seat, cmd.moving, cmd.lot, events)
    del state["markers"][cmd.lot]
    state["money"][seat] -= price
    state["tiles"][cmd.lot] = [cmd.company, 1, seat, LOTS[cmd.lot].die]
    after = casinos(state)  # settling rerolls dice only: the casinos stay these
    events.append(
        {
            "type": "build",
            "seat": seat,
            "lot": cmd.lot,
            "company": cmd.company,
            "cost": price,
            "joins": joined(state, before, cmd.lot, after),
        }
    )
    settle(state, before, rng, events, after)


def joined(
    state: State, before: Snapshot, lot: str, after: list[Casino] | None = None
) -> list[str]:
    """The casinos a new tile on ``lot`` joined, each named by its first lot (``after``:
    the casinos now, when the caller has them)."""
    if after is None:
        casino = casino_at(state, lot) or []
    else:
        casino = next((found for found in after if lot in found), [])
    if len(casino) == 1:
        return []  # a tile on its own joined nothing
    firsts: dict[int, str] = {}
    for other in casino:
        if other in before:
            firsts.setdefault(before[other][0], other)
    return sorted(firsts.values(), key=LOT_ORDER.__getitem__)


# -- sprawl ---------------------------------------------------------------------------------


def check_sprawl(state: State, seat: int, cmd: Sprawl) -> tuple[Casino, int]:
    lot, origin = cmd.lot, cmd.origin
    casino = _casino(
        state,
        origin,
        _(
            "%(lot)s has no casino tile: you can only sprawl from a casino",
            lot=origin,
        ),
    )
    _boss_only(state, seat, casino, origin, "sprawl")
    if lot in state["tiles"]:
        raise IllegalCommand(
            _("%(lot)s already has a casino tile: you can only sprawl into a lot", lot=lot)
        )
    owner = state["markers"].get(lot)
    if owner is not None:
        raise IllegalCommand(
            _(
                "%(lot)s is owned by %(owner)s: you can only sprawl into an unowned lot",
                lot=lot,
                owner=colour_name(state, owner),
            )
        )
    if not in_play(lot, state["players"]):
        raise IllegalCommand(
            _("%(lot)s is in the F block, out of play in a two-player game", lot=lot)
        )
    if lot not in neighbours(casino):
        raise IllegalCommand(
            _("%(lot)s is not next to the casino at %(origin)s", lot=lot, origin=origin)
        )
    _tiles_left(state, company(state, casino), 1)
    cost = 2 * LOTS[lot].price + RISER_PRICE * (height(state, casino) - 1)
    _money(
        state,
        seat,
        cost,
        lambda price, have: _(
            "sprawling into %(lot)s costs %(cost)s and you have %(money)s",
            lot=lot,
            cost=price,
            money=have,
        ),
    )
    check_moving(state, seat, cmd.moving, lot, f"sprawl {lot} from {origin}")
    return casino, cost


def sprawl(state: State, seat: int, cmd: Sprawl, rng: Rng, events: list[Event]) -> None:
    """Twice the lot's price (plus $15m a riser to match a raised casino) for a tile of the
    casino's company, at its height, with your die showing the printed value."""
    casino, cost = check_sprawl(state, seat, cmd)
    before = snapshot(state)
    take_die(state, seat, cmd.moving, cmd.lot, events)
    state["money"][seat] -= cost
    name, tall = company(state, casino), height(state, casino)
    state["tiles"][cmd.lot] = [name, tall, seat, LOTS[cmd.lot].die]
    events.append(
        {
            "type": "sprawl",
            "seat": seat,
            "lot": cmd.lot,
            "origin": cmd.origin,
            "company": name,
            "cost": cost,
        }
    )
    settle(state, before, rng, events)


# -- remodel --------------------------------------------------------------------------------


def check_remodel(state: State, seat: int, cmd: Remodel) -> tuple[Casino, int]:
    casino = _casino(
        state,
        cmd.lot,
        _("%(lot)s has no casino tile: you can only remodel a casino", lot=cmd.lot),
    )
    _boss_only(state, seat, casino, cmd.lot, "remodel")
    if company(state, casino) == cmd.company:
        raise IllegalCommand(
            _(
                "the casino at %(lot)s is already %(company)s",
                lot=cmd.lot,
                company=company_name(state, cmd.company),
            )
        )
    _tiles_left(state, cmd.company, len(casino))
    size = len(casino)
    cost = REMODEL_PRICE * size
    _money(
        state,
        seat,
        cost,
        lambda price, have: ngettext(
            "remodelling the %(size)s-space casino at %(lot)s costs %(cost)s "
            "and you have %(money)s",
            "remodelling the %(size)s-space casino at %(lot)s costs %(cost)s "
            "and you have %(money)s",
            size,
            size=size,
            lot=cmd.lot,
            cost=price,
            money=have,
        ),
    )
    return casino, cost


def remodel(state: State, seat: int, cmd: Remodel, rng: Rng, events: list[Event]) -> None:
    """$5m a space (risers change colour for free); the old tiles go back to the stock."""
    casino, cost = check_remodel(state, seat, cmd)
    before = snapshot(state)
    state["money"][seat] -= cost
    old = company(state, casino)
    for lot in casino:
        state["tiles"][lot][0] = cmd.company
    events.append(
        {
            "type": "remodel",
            "seat": seat,
            "casino": casino,
            "from": old,
            "company": cmd.company,
            "cost": cost,
        }
    )
    settle(state, before, rng, events)


# -- reorganize -----------------------------------------------------------------------------


def check_reorganize(state: State, seat: int, cmd: Reorganize) -> tuple[Casino, int]:
    casino = _casino(
        state,
        cmd.lot,
        _("%(lot)s has no casino tile: you can only reorganize a casino", lot=cmd.lot),
    )
    tiles = state["tiles"]
    if not any(tiles[lot][OWNER] == seat for lot in casino):
        raise IllegalCommand(
            _("you have no die in the casino at %(lot)s: you cannot reorganize it", lot=cmd.lot)
        )
    done = set(state["reorged"]).intersection(casino)
    if done:
        raise IllegalCommand(
            _(
                "the die on %(die)s was already reorganized this turn: the casino at "
                "%(lot)s cannot be reorganized again until your next turn",
                die=min(done),
                lot=cmd.lot,
            )
        )
    cost = sum(tiles[lot][PIP] for lot in casino if tiles[lot][OWNER] is not None)
    _money(
        state,
        seat,
        cost,
        lambda price, have: _(
            "reorganizing the casino at %(lot)s costs %(cost)s and you have %(money)s",
            lot=cmd.lot,
            cost=price,
            money=have,
        ),
    )
    return casino, cost


def reorganize(state: State, seat: int, cmd: Reorganize, rng: Rng, events: list[Event]) -> None:
    """$1m a pip; every die rerolled; each owner of two or more dice there then places their
    values (automatically, or as a pending decision for seats that asked)."""
    casino, cost = check_reorganize(state, seat, cmd)
    before = snapshot(state)
    tiles = state["tiles"]
    state["money"][seat] -= cost
    dice = [lot for lot in casino if tiles[lot][OWNER] is not None]
    rolls = []
    for lot in dice:
        tiles[lot][PIP] = rng.die()
        rolls.append({"lot": lot, "seat": tiles[lot][OWNER], "value": tiles[lot][PIP]})
    state["reorged"].extend(dice)
    events.append(
        {"type": "reorganize", "seat": seat, "casino": casino, "cost": cost, "rolls": rolls}
    )
    # The dice go back onto their owners' tiles as part of the action, before ties settle.
    asking = []
    for owner in sorted({tiles[lot][OWNER] for lot in dice}):
        mine = [lot for lot in dice if tiles[lot][OWNER] == owner]
        if len(mine) < 2:
            continue
        if pref(state, owner, "place") == "ask":
            asking.append((owner, mine))
        else:
            arrange_dice(state, mine, events)
    settle(state, before, rng, events)
    for owner, mine in asking:
        # A seat that asks places its values once the ties are settled (the game must not
        # keep two bosses while it waits); only the tiles change, never the values.
        state["pending"].append({"kind": "place", "seat": owner, "lots": mine})
        events.append({"type": "waiting", "seat": owner, "decision": "place", "lots": mine})


# -- raise ----------------------------------------------------------------------------------


def check_raise(state: State, seat: int, cmd: Raise) -> tuple[Casino, int]:
    if state["edition"] != "2024":
        raise IllegalCommand(_("the classic edition has no raise action"))
    casino = _casino(
        state, cmd.lot, _("%(lot)s has no casino tile: you can only raise a casino", lot=cmd.lot)
    )
    _boss_only(state, seat, casino, cmd.lot, "raise")
    tall, top = height(state, casino), max_height(state)
    if tall >= top:
        raise IllegalCommand(
            ngettext(
                "the casino at %(lot)s is already %(height)s tile high, "
                "the most in a %(players)s-player game",
                "the casino at %(lot)s is already %(height)s tiles high, "
                "the most in a %(players)s-player game",
                tall,
                lot=cmd.lot,
                height=tall,
                players=state["players"],
            )
        )
    size = len(casino)
    cost = RISER_PRICE * size
    _money(
        state,
        seat,
        cost,
        lambda price, have: ngettext(
            "raising the %(size)s-space casino at %(lot)s costs %(cost)s and you have %(money)s",
            "raising the %(size)s-space casino at %(lot)s costs %(cost)s and you have %(money)s",
            size,
            size=size,
            lot=cmd.lot,
            cost=price,
            money=have,
        ),
    )
    return casino, cost


def raise_casino(state: State, seat: int, cmd: Raise, rng: Rng, events: list[Event]) -> None:
    """$15m a space for a riser under every tile; may merge with a neighbour of that height."""
    casino, cost = check_raise(state, seat, cmd)
    before = snapshot(state)
    state["money"][seat] -= cost
    for lot in casino:
        state["tiles"][lot][1] += 1
    events.append(
        {
            "type": "raise",
            "seat": seat,
            "casino": casino,
            "height": height(state, casino),
            "cost": cost,
        }
    )
    settle(state, before, rng, events)


# -- gamble ---------------------------------------------------------------------------------


def check_gamble(state: State, seat: int, cmd: Gamble) -> tuple[Casino, int]:
    if state["gambles"]:
        raise IllegalCommand(_("you have already gambled this turn: gamble at most once a turn"))
    casino = _casino(
        state,
        cmd.lot,
        _("%(lot)s has no casino tile: you can only gamble at a casino", lot=cmd.lot),
    )
    chief = boss(state, casino)
    if chief is None:
        raise IllegalCommand(_("the casino at %(lot)s has no boss to take your bet", lot=cmd.lot))
    if chief == seat:
        raise IllegalCommand(
            _(
                "you are the boss of the casino at %(lot)s: gamble at another player's casino",
                lot=cmd.lot,
            )
        )
    tiles = points(state, casino)
    most = GAMBLE_PER_TILE * tiles
    if cmd.amount > most:
        raise IllegalCommand(
            ngettext(
                "you can bet at most %(most)s at the %(tiles)s-tile casino at %(lot)s, "
                "not %(amount)s",
                "you can bet at most %(most)s at the %(tiles)s-tile casino at %(lot)s, "
                "not %(amount)s",
                tiles,
                most=money(most),
                tiles=tiles,
                lot=cmd.lot,
                amount=money(cmd.amount),
            )
        )
    if cmd.amount > state["money"][seat]:
        raise IllegalCommand(
            _(
                "you cannot bet %(amount)s: you have %(money)s",
                amount=money(cmd.amount),
                money=money(state["money"][seat]),
            )
        )
    return casino, chief


def gamble(state: State, seat: int, cmd: Gamble, rng: Rng, events: list[Event]) -> None:
    """Bet at another player's casino; classic: its boss may lay off half first."""
    chief = check_gamble(state, seat, cmd)[1]
    state["gambles"] += 1
    layoff_or_ask(state, seat, chief, cmd.lot, cmd.amount, rng, events)


HANDLERS = {
    Build: build,
    Sprawl: sprawl,
    Remodel: remodel,
    Reorganize: reorganize,
    Raise: raise_casino,
    Gamble: gamble,
}


def perform(
    state: State,
    seat: int,
    action: Build | Sprawl | Remodel | Reorganize | Raise | Gamble,
    rng: Rng,
    events: list[Event],
) -> None:
    """Run one action of the active player (on a copy of the state: a refusal raises)."""
    HANDLERS[type(action)](state, seat, action, rng, events)  # type: ignore[operator]
    state["acts"] += 1
