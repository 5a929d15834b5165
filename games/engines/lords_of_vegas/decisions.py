"""Decisions the game waits on, standing preferences, and their automatic answers.

A pending decision is a small dict in ``state["pending"]``:

* ``{"kind": "move", "seat", "piece": "die"|"lot", "lot"}`` - step 1 gave the active player a
  lot or a tile while all 10 markers / 12 dice are on the board: which one moves there?
* ``{"kind": "place", "seat", "lots"}`` - after a reorganize, a seat that asked to choose
  places its rerolled values on its tiles. The values already sit on the tiles in an
  automatic order, so the board is always complete; the answer only permutes them (bosses
  cannot change, since they depend on each player's values, not on which tile holds them).
* ``{"kind": "layoff", "seat", "gambler", "lot", "amount"}`` - classic edition: the boss of
  the casino decides whether to lay off half of the bet before the roll.

While any decision is pending, the game waits: the active player takes no action.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engines.base import Event, IllegalCommand, State
from games.engines.rng import Rng
from games.engines.text import _

from .board import DICE_PER_PLAYER, LOT_ORDER, LOTS, MARKERS_PER_PLAYER
from .commands import PREFERENCES, Command, LayOff, Move, Place, Prefer
from .state import OWNER, PIP, dice_on_board, markers_on_board, pref
from .turn import finish_draw, place_die_on_drawn

LOSING_ROLLS = frozenset({5, 6, 7, 8})
DOUBLE_ROLLS = frozenset({2, 12})


def pending_for(state: State, seat: int | None, kind: str | None = None) -> dict[str, Any] | None:
    for decision in state["pending"]:
        if decision["seat"] == seat and (kind is None or decision["kind"] == kind):
            return dict(decision)
    return None


def _drop(state: State, decision: dict[str, Any]) -> None:
    state["pending"] = [
        d
        for d in state["pending"]
        if not (d["seat"] == decision["seat"] and d["kind"] == decision["kind"])
    ]


# -- placing rerolled dice --------------------------------------------------------------------


def auto_order(state: State, lots: list[str]) -> list[str]:
    """Tiles whose card was already drawn first: no draw can take a die from them, so they
    are where the highest values are safest."""
    drawn = set(state["discard"])
    return sorted(lots, key=lambda lot: (lot not in drawn, LOT_ORDER[lot]))


def arrange_dice(state: State, lots: list[str], events: list[Event] | None = None) -> None:
    """The automatic answer: highest values onto the safest tiles."""
    tiles = state["tiles"]
    values = sorted((tiles[lot][PIP] for lot in lots), reverse=True)
    for lot, value in zip(auto_order(state, lots), values, strict=True):
        tiles[lot][PIP] = value
    if events is not None:
        seat = tiles[lots[0]][OWNER]
        placed = {lot: tiles[lot][PIP] for lot in lots}
        events.append({"type": "placed", "seat": seat, "values": placed, "auto": True})


def answer_place(state: State, seat: int, cmd: Place, events: list[Event]) -> None:
    decision = pending_for(state, seat, "place")
    if decision is None:
        raise IllegalCommand(_("nothing asks you to place dice now"))
    lots = decision["lots"]
    given = dict(cmd.values)
    if len(given) != len(cmd.values) or set(given) != set(lots):
        raise IllegalCommand(
            _("place a value on each of %(lots)s, and only there", lots=", ".join(lots))
        )
    have = Counter(state["tiles"][lot][PIP] for lot in lots)
    if Counter(given.values()) != have:
        rolled = ", ".join(str(v) for v in sorted(have.elements(), reverse=True))
        raise IllegalCommand(
            _("your rerolled values are %(values)s: place exactly those", values=rolled)
        )
    for lot, value in given.items():
        state["tiles"][lot][PIP] = value
    _drop(state, decision)
    events.append({"type": "placed", "seat": seat, "values": given, "auto": False})


# -- moving a die or a lot marker at step 1 -----------------------------------------------------


def answer_move(state: State, seat: int, cmd: Move, rng: Rng, events: list[Event]) -> None:
    """Free the named die or marker, finish step 1 with it, then run steps 2-5."""
    decision = pending_for(state, seat, "move")
    if decision is None:
        raise IllegalCommand(
            _(
                "nothing asks you to move a die or lot marker now "
                "(to move a die while you build or sprawl, add 'moving <lot>' to that command)"
            )
        )
    target = decision["lot"]
    if cmd.piece != decision["piece"]:
        if decision["piece"] == "die":
            raise IllegalCommand(_("you are asked which die moves to %(lot)s", lot=target))
        raise IllegalCommand(_("you are asked which lot marker moves to %(lot)s", lot=target))
    if cmd.piece == "die":
        tile = state["tiles"].get(cmd.lot)
        if tile is None or tile[OWNER] != seat:
            raise IllegalCommand(
                _("%(moving)s has no die of yours to move to %(lot)s", moving=cmd.lot, lot=target)
            )
        _drop(state, decision)
        tile[OWNER] = tile[PIP] = None
        events.append({"type": "die_moved", "seat": seat, "from": cmd.lot, "to": target})
        place_die_on_drawn(state, rng, events)
    else:
        if state["markers"].get(cmd.lot) != seat:
            raise IllegalCommand(
                _("%(lot)s is not your parking lot: no marker of yours there", lot=cmd.lot)
            )
        _drop(state, decision)
        del state["markers"][cmd.lot]
        state["markers"][target] = seat
        events.append({"type": "marker_moved", "seat": seat, "from": cmd.lot, "to": target})
    finish_draw(state, events)


def auto_move(state: State, seat: int, piece: str) -> str:
    """Timeout answer: the lowest die (or the cheapest lot) is the smallest loss."""
    if piece == "die":
        dice: list[str] = [lot for lot, tile in state["tiles"].items() if tile[OWNER] == seat]
        return min(dice, key=lambda lot: (state["tiles"][lot][PIP], LOTS[lot].price, lot))
    lots: list[str] = [lot for lot, owner in state["markers"].items() if owner == seat]
    return min(lots, key=lambda lot: (LOTS[lot].price, lot))


# -- gambling and the classic lay-off ---------------------------------------------------------


def layoff_or_ask(
    state: State, gambler: int, chief: int, lot: str, amount: int, rng: Rng, events: list[Event]
) -> None:
    """The bet goes on the table (out of the gambler's money, so nothing can spend it while
    a decision waits). 2024: roll at once. Classic: the boss's preference decides the
    lay-off, or asks."""
    state["money"][gambler] -= amount
    events.append({"type": "bet", "seat": gambler, "boss": chief, "lot": lot, "amount": amount})
    if state["edition"] != "classic":
        resolve_gamble(state, gambler, chief, lot, amount, False, rng, events)
        return
    choice = pref(state, chief, "layoff")
    if choice == "ask":
        state["pending"].append(
            {"kind": "layoff", "seat": chief, "gambler": gambler, "lot": lot, "amount": amount}
        )
        events.append({"type": "waiting", "seat": chief, "decision": "layoff", "lot": lot})
        return
    resolve_gamble(state, gambler, chief, lot, amount, choice == "always", rng, events)


def answer_layoff(state: State, seat: int, cmd: LayOff, rng: Rng, events: list[Event]) -> None:
    decision = pending_for(state, seat, "layoff")
    if decision is None:
        raise IllegalCommand(_("no bet at your casinos waits for your lay-off decision"))
    _drop(state, decision)
    resolve_gamble(
        state,
        decision["gambler"],
        seat,
        decision["lot"],
        decision["amount"],
        cmd.lay_off,
        rng,
        events,
    )


def resolve_gamble(
    state: State,
    gambler: int,
    chief: int,
    lot: str,
    amount: int,
    lay_off: bool,
    rng: Rng,
    events: list[Event],
) -> None:
    """The field bet, already on the table: 3, 4, 9, 10, 11 pay even, 2 and 12 double,
    5-8 lose.

    A boss who cannot cover pays what they have. With a lay-off (classic) "the boss only pays
    half (round down) and the bank pays the rest": half of what the boss owes, so a $5m bet
    won double costs the boss $5m of the $10m; a lost bet gives the boss half of it, rounded
    down, and the bank the rest.
    """
    dice = [rng.die(), rng.die()]
    total = sum(dice)
    money = state["money"]
    if total in LOSING_ROLLS:
        share = amount // 2 if lay_off else amount
        money[chief] += share
        boss_paid, bank_paid, won = -share, share - amount, -amount
    else:
        owed = amount * (2 if total in DOUBLE_ROLLS else 1)
        due = owed // 2 if lay_off else owed
        boss_paid = min(due, money[chief])
        bank_paid = owed - due
        money[chief] -= boss_paid
        money[gambler] += amount + boss_paid + bank_paid
        won = boss_paid + bank_paid
    events.append(
        {
            "type": "gamble",
            "seat": gambler,
            "boss": chief,
            "lot": lot,
            "amount": amount,
            "dice": dice,
            "total": total,
            "won": won,
            "boss_paid": boss_paid,
            "bank_paid": bank_paid,
            "lay_off": lay_off,
        }
    )


# -- preferences -------------------------------------------------------------------------------


def set_preference(state: State, seat: int, cmd: Prefer, events: list[Event]) -> None:
    """Store only what differs from the default, to keep the state small."""
    if cmd.value == PREFERENCES[cmd.topic][0]:
        state["prefs"][seat].pop(cmd.topic, None)
    else:
        state["prefs"][seat][cmd.topic] = cmd.value
    events.append({"type": "preference", "seat": seat, "topic": cmd.topic, "value": cmd.value})


# -- what a timeout answers ----------------------------------------------------------------------


def automatic_answer(state: State, decision: dict[str, Any]) -> Command:
    """The answer the engine gives for a seat that does not answer in time."""
    seat = decision["seat"]
    if decision["kind"] == "move":
        return Move(decision["piece"], auto_move(state, seat, decision["piece"]))
    if decision["kind"] == "place":
        trial = {"tiles": {lot: list(state["tiles"][lot]) for lot in decision["lots"]}}
        trial["discard"] = state["discard"]
        arrange_dice(trial, decision["lots"])
        return Place(tuple((lot, trial["tiles"][lot][PIP]) for lot in decision["lots"]))
    return LayOff(pref(state, seat, "layoff") == "always")


def recheck_move(state: State, rng: Rng, events: list[Event]) -> None:
    """A trade may free the die or marker a step-1 decision waits for ("you must remove or
    trade to free up 1"): then step 1 goes on by itself, followed by steps 2-5."""
    decision = next((d for d in state["pending"] if d["kind"] == "move"), None)
    if decision is None:
        return
    seat = decision["seat"]
    if decision["piece"] == "die":
        if dice_on_board(state, seat) >= DICE_PER_PLAYER:
            return
        _drop(state, decision)
        place_die_on_drawn(state, rng, events)
    else:
        if markers_on_board(state, seat) >= MARKERS_PER_PLAYER:
            return
        _drop(state, decision)
        state["markers"][decision["lot"]] = seat
        events.append({"type": "lot", "seat": seat, "lot": decision["lot"]})
    finish_draw(state, events)
