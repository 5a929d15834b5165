"""Turn steps 1-5, which run by themselves when a turn starts, and the end of the game.

1. draw a card and take its lot, 2. every parking lot pays, 3. the card's casinos pay,
4. they score, 5. discard. Step 1 may wait on the active player when all their dice or lot
markers are on the board (a pending "move" decision, see :mod:`.decisions`); the steps carry
on when it is answered.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Event, State
from games.engines.rng import Rng

from .board import (
    DICE_PER_PLAYER,
    GAME_OVER,
    LOTS,
    MARKERS_PER_PLAYER,
    STRIP,
    TRACK_END,
    advance,
    card_pays,
    in_play,
)
from .casinos import Casino, boss, casinos, points, settle, snapshot, touches_strip
from .state import OWNER, PIP, dice_on_board, markers_on_board


def start_turn(state: State, rng: Rng, events: list[Event]) -> None:
    """Steps 1-5 for the seat in ``state["turn"]``; stops early if step 1 needs a choice."""
    events.append({"type": "turn", "seat": state["turn"]})
    draw(state, rng, events)


def end_turn(state: State, rng: Rng, events: list[Event]) -> None:
    """Pass the turn to the left and run the next player's steps 1-5."""
    state["turn"] = (state["turn"] + 1) % state["players"]
    state["gambles"] = 0
    state["acts"] = 0
    state["reorged"] = []
    start_turn(state, rng, events)


def draw(state: State, rng: Rng, events: list[Event]) -> None:
    """Draw until a card names a lot in play (two players skip the F block, which still pays)."""
    seat = state["turn"]
    while state["over"] is None:
        card = state["deck"].pop(0)
        events.append({"type": "card", "seat": seat, "card": card, "pays": card_pays(card)})
        if card == GAME_OVER:
            state["discard"].append(card)
            game_over(state, "card", events)
            return
        state["drawn"] = card
        if in_play(card, state["players"]):
            if take_lot(state, rng, events):
                finish_draw(state, events)
            return
        events.append({"type": "out_of_play", "card": card})
        finish_draw(state, events)


def take_lot(state: State, rng: Rng, events: list[Event]) -> bool:
    """Step 1: the drawn card's lot becomes the active player's. False when it waits for the
    player to say which die or lot marker moves."""
    seat, lot = state["turn"], state["drawn"]
    tile = state["tiles"].get(lot)
    if tile is not None:
        if tile[OWNER] == seat:
            events.append({"type": "already_yours", "seat": seat, "lot": lot})
            return True
        if dice_on_board(state, seat) >= DICE_PER_PLAYER:
            state["pending"].append({"kind": "move", "seat": seat, "piece": "die", "lot": lot})
            events.append({"type": "waiting", "seat": seat, "decision": "move die", "lot": lot})
            return False
        place_die_on_drawn(state, rng, events)
        return True
    if state["markers"].get(lot) == seat:
        events.append({"type": "already_yours", "seat": seat, "lot": lot})
        return True
    if markers_on_board(state, seat) >= MARKERS_PER_PLAYER:
        state["pending"].append({"kind": "move", "seat": seat, "piece": "lot", "lot": lot})
        events.append({"type": "waiting", "seat": seat, "decision": "move lot", "lot": lot})
        return False
    state["markers"][lot] = seat
    events.append({"type": "lot", "seat": seat, "lot": lot})
    return True


def place_die_on_drawn(state: State, rng: Rng, events: list[Event]) -> None:
    """Take over the drawn tile: keep the value of the die there, or use the printed one."""
    seat, lot = state["turn"], state["drawn"]
    tile = state["tiles"][lot]
    before = snapshot(state)
    previous = tile[OWNER]
    value = tile[PIP] if previous is not None else LOTS[lot].die
    tile[OWNER], tile[PIP] = seat, value
    events.append({"type": "take_over", "seat": seat, "lot": lot, "value": value, "from": previous})
    settle(state, before, rng, events)


def finish_draw(state: State, events: list[Event]) -> None:
    """Steps 2-5 for the drawn card."""
    card = state["drawn"]
    payout(state, card_pays(card), events)
    state["discard"].append(card)
    state["drawn"] = None
    if max(state["score"]) >= TRACK_END:
        game_over(state, "track", events)


def payout(state: State, pays: str, events: list[Event]) -> None:
    """Steps 2-4: parking lots pay $1m, the paying casinos pay $1m a pip and score (the
    smallest first: a casino's points do not change while they are paid)."""
    pay_parking(state, events)
    if pays == STRIP:
        paying = [casino for casino in casinos(state) if touches_strip(casino)]
    else:
        paying = casinos(state, only=pays)
    if not paying:
        return
    for casino in paying:
        pay_casino(state, casino, events)
    if len(paying) == 1:
        score_casino(state, paying[0], events)
        return
    worth = [(points(state, casino), casino) for casino in paying]
    worth.sort(key=_first)  # stable: equal points keep board order
    for gained, casino in worth:
        score_casino(state, casino, events, gained)


def _first(pair: tuple[int, Casino]) -> int:
    return pair[0]


def pay_parking(state: State, events: list[Event]) -> None:
    """$1m per parking lot to its owner, seats in order."""
    markers = state["markers"]
    if not markers:
        return
    amounts = [0] * state["players"]
    for owner in markers.values():
        amounts[owner] += 1
    money = state["money"]
    for seat, amount in enumerate(amounts):
        if amount:
            money[seat] += amount
            events.append({"type": "parking", "seat": seat, "amount": amount})


def pay_casino(state: State, casino: Casino, events: list[Event]) -> None:
    tiles = state["tiles"]
    paid: dict[int, int] = {}
    for lot in casino:
        tile = tiles[lot]
        owner = tile[OWNER]
        if owner is not None:
            paid[owner] = paid.get(owner, 0) + tile[PIP]
    if len(paid) > 1:
        paid = dict(sorted(paid.items()))
    money = state["money"]
    for seat, amount in paid.items():
        money[seat] += amount
        events.append({"type": "paid", "seat": seat, "amount": amount, "casino": casino})


def score_casino(
    state: State, casino: Casino, events: list[Event], gained: int | None = None
) -> None:
    """The boss scores one point per tile (``gained``, when the caller counted them);
    breaks in the track can swallow points."""
    chief = boss(state, casino)
    if chief is None:
        return
    if gained is None:
        gained = points(state, casino)
    before = state["score"][chief]
    state["score"][chief] = advance(before, gained)
    events.append(
        {
            "type": "scored",
            "seat": chief,
            "casino": casino,
            "points": gained,
            "from": before,
            "to": state["score"][chief],
        }
    )


def game_over(state: State, reason: str, events: list[Event]) -> None:
    """The Game Over card pays parking lots and the Strip one last time; then it is over."""
    if reason == "card":
        payout(state, STRIP, events)
    state["over"] = reason
    state["pending"] = []
    state["drawn"] = None
    events.append({"type": "game_end", "reason": reason, "placings": placings(state)})


def placings(state: State) -> list[dict[str, Any]]:
    """Most points first, then most money; equal seats share a rank."""
    keys = [(state["score"][s], state["money"][s]) for s in range(state["players"])]
    order = sorted(range(state["players"]), key=lambda s: keys[s], reverse=True)
    return [
        {
            "seat": s,
            "rank": 1 + sum(1 for k in keys if k > keys[s]),
            "points": keys[s][0],
            "money": keys[s][1],
        }
        for s in order
    ]
