"""Trades: an ordered list of steps (money, parking lots, dice, the active player's actions)
that every party agreed to.

The books: "If something stops an element of a trade from occurring, the later steps of the
trade do not occur." So the steps run in order on the state; a step that cannot happen is
reported in the events and ends the trade, while the earlier steps stand. Each step checks
everything before it changes anything, so a refused step leaves no trace.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engines.base import Event, IllegalCommand, State
from games.engines.rng import Rng
from games.engines.text import Text, _

from .actions import follow_die, perform
from .board import DICE_PER_PLAYER, MARKERS_PER_PLAYER
from .casinos import settle, snapshot
from .commands import Do, GiveDie, GiveLot, Pay, Step, Trade
from .decisions import recheck_move
from .notation import format_in
from .state import OWNER, colour_name, dice_on_board, markers_on_board, seat_of
from .words import money, player


def _seat(state: State, colour: str) -> int:
    seat = seat_of(state, colour)
    if seat is None:
        raise IllegalCommand(_("there is no %(player)s player in this game", player=player(colour)))
    return seat


def step_seats(state: State, step: Step) -> set[int]:
    """The seats a step involves (the active player for an action)."""
    if isinstance(step, Pay):
        return {_seat(state, step.payer), _seat(state, step.payee)}
    if isinstance(step, GiveLot | GiveDie):
        return {_seat(state, step.giver), _seat(state, step.receiver)}
    return {int(state["turn"])}


def parties(state: State, seat: int | None, trade: Trade) -> frozenset[int]:
    """Every seat that must agree: the proposer and everyone a step names."""
    seats = set().union(*(step_seats(state, step) for step in trade.steps))
    if seat is not None:
        seats.add(seat)
    return frozenset(seats)


def check_trade(state: State, trade: Trade) -> None:
    """What refuses a whole trade before any step: a finished game, or a step that the
    game's waiting state already rules out (see :func:`check_waiting`)."""
    if state["over"] is not None:
        raise IllegalCommand(_("the game is over: no more trades"))
    for step in trade.steps:
        check_waiting(state, step)
    parties(state, None, trade)


def check_waiting(state: State, step: Step) -> None:
    """While a bet waits for the lay-off decision nothing is traded (the money is on the
    table); while any decision waits, no action. Checked again before every step, because
    an earlier step (a gamble) may start the wait."""
    for decision in state["pending"]:
        if decision["kind"] == "layoff":
            raise IllegalCommand(
                _(
                    "a bet waits for %(player)s's lay-off decision: trade after it",
                    player=colour_name(state, decision["seat"]),
                )
            )
    if state["pending"] and isinstance(step, Do):
        raise IllegalCommand(_("the game waits on a decision: a trade cannot include actions now"))


def apply_trade(
    state: State, seat: int | None, trade: Trade, rng: Rng, events: list[Event]
) -> None:
    check_trade(state, trade)
    events.append({"type": "trade", "seats": sorted(parties(state, seat, trade))})
    for number, step in enumerate(trade.steps, start=1):
        try:
            run_step(state, step, rng, events)
        except IllegalCommand as refusal:
            reason = refusal.text.to_json() if isinstance(refusal.text, Text) else refusal.text
            events.append({"type": "trade_stopped", "step": number, "reason": reason})
            break
    else:
        events.append({"type": "trade_done", "steps": len(trade.steps)})
    recheck_move(state, rng, events)


def run_step(state: State, step: Step, rng: Rng, events: list[Event]) -> None:
    check_waiting(state, step)
    if isinstance(step, Do):
        perform(state, int(state["turn"]), step.action, rng, events)
        return
    before = snapshot(state)
    if isinstance(step, Pay):
        pay(state, step, events)
    elif isinstance(step, GiveLot):
        give_lot(state, step, events)
    else:
        give_die(state, step, events)
    settle(state, before, rng, events)


def pay(state: State, step: Pay, events: list[Event]) -> None:
    payer, payee = _seat(state, step.payer), _seat(state, step.payee)
    if payer == payee:
        raise IllegalCommand(
            _("%(player)s cannot pay themselves", player=colour_name(state, payer))
        )
    if state["money"][payer] < step.amount:
        raise IllegalCommand(
            _(
                "%(player)s has only %(money)s and cannot pay %(amount)s",
                player=colour_name(state, payer),
                money=money(state["money"][payer]),
                amount=money(step.amount),
            )
        )
    state["money"][payer] -= step.amount
    state["money"][payee] += step.amount
    events.append({"type": "trade_pay", "seat": payer, "to": payee, "amount": step.amount})


def _check_moving(
    state: State, receiver: int, moving: str | None, full: bool, piece: str, lot: str
) -> None:
    """A receiver with every piece on the board names which one moves (or the step fails);
    ``piece`` is "lot marker" or "die"."""
    marker = piece == "lot marker"
    params = {"player": colour_name(state, receiver), "moving": moving, "lot": lot}
    if not full:
        if moving is not None:
            raise IllegalCommand(
                _("%(player)s has a free lot marker: leave out 'moving %(moving)s'", **params)
                if marker
                else _("%(player)s has a free die: leave out 'moving %(moving)s'", **params)
            )
        return
    if moving is None:
        raise IllegalCommand(
            _(
                "all of %(player)s's lot markers are on the board: add 'moving <lot>' "
                "to say which one moves to %(lot)s",
                **params,
            )
            if marker
            else _(
                "all of %(player)s's dice are on the board: add 'moving <lot>' "
                "to say which one moves to %(lot)s",
                **params,
            )
        )
    owned = (
        state["markers"].get(moving)
        if marker
        else (state["tiles"].get(moving) or [None, None, None])[OWNER]
    )
    if owned != receiver:
        raise IllegalCommand(
            _("%(moving)s has no lot marker of %(player)s's to move to %(lot)s", **params)
            if marker
            else _("%(moving)s has no die of %(player)s's to move to %(lot)s", **params)
        )


def give_lot(state: State, step: GiveLot, events: list[Event]) -> None:
    giver, receiver = _seat(state, step.giver), _seat(state, step.receiver)
    if giver == receiver or state["markers"].get(step.lot) != giver:
        raise IllegalCommand(
            _(
                "%(lot)s is not %(player)s's parking lot",
                lot=step.lot,
                player=colour_name(state, giver),
            )
        )
    full = markers_on_board(state, receiver) >= MARKERS_PER_PLAYER
    _check_moving(state, receiver, step.moving, full, "lot marker", step.lot)
    if step.moving is not None:
        del state["markers"][step.moving]
    state["markers"][step.lot] = receiver
    events.append(
        {"type": "trade_lot", "seat": giver, "to": receiver, "lot": step.lot, "moving": step.moving}
    )


def give_die(state: State, step: GiveDie, events: list[Event]) -> None:
    giver, receiver = _seat(state, step.giver), _seat(state, step.receiver)
    tile = state["tiles"].get(step.lot)
    if giver == receiver or tile is None or tile[OWNER] != giver:
        raise IllegalCommand(
            _(
                "%(lot)s has no die of %(player)s's",
                lot=step.lot,
                player=colour_name(state, giver),
            )
        )
    if any(d["kind"] == "place" and step.lot in d["lots"] for d in state["pending"]):
        raise IllegalCommand(
            _("the die on %(lot)s waits to be placed after a reorganize", lot=step.lot)
        )
    full = dice_on_board(state, receiver) >= DICE_PER_PLAYER
    _check_moving(state, receiver, step.moving, full, "die", step.lot)
    if step.moving is not None:
        moved = state["tiles"][step.moving]
        moved[OWNER] = moved[3] = None
        follow_die(state, step.moving, step.lot)
    tile[OWNER] = receiver
    events.append(
        {
            "type": "trade_die",
            "seat": giver,
            "to": receiver,
            "lot": step.lot,
            "value": tile[3],
            "moving": step.moving,
        }
    )


def in_words(trade: Trade, names: Mapping[str, str], active: str, language: str) -> list[Text]:
    """Each step of a trade as a sentence (the board page's words, its msgids), the party
    named as ``names`` gives each colour ("Red (Cy)"), the action of the active player
    (``active``: their name) in ``language``'s words (``notation.format_in``): the trade
    offer's email showed only the notation (found by play-testing)."""
    said = []
    for step in trade.steps:
        if isinstance(step, Pay):
            said.append(
                _(
                    "%(payer)s pays %(payee)s %(money)s.",
                    payer=names.get(step.payer, step.payer),
                    payee=names.get(step.payee, step.payee),
                    money=money(step.amount),
                )
            )
        elif isinstance(step, GiveLot):
            said.append(
                _(
                    "%(giver)s gives the parking lot %(lot)s to %(receiver)s.",
                    giver=names.get(step.giver, step.giver),
                    lot=step.lot,
                    receiver=names.get(step.receiver, step.receiver),
                )
            )
        elif isinstance(step, GiveDie):
            said.append(
                _(
                    "%(giver)s gives the die on %(lot)s to %(receiver)s.",
                    giver=names.get(step.giver, step.giver),
                    lot=step.lot,
                    receiver=names.get(step.receiver, step.receiver),
                )
            )
        else:
            said.append(
                _(
                    "%(player)s, whose turn it is, does: %(action)s",
                    player=active,
                    action=format_in(step.action, language),
                )
            )
    return said
