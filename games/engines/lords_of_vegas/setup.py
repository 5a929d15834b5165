"""Setting up: the deal, starting money, the Game Over card, the first player, turn one."""

from __future__ import annotations

from games.engines.base import Event, State
from games.engines.rng import Rng, shuffle

from .board import GAME_OVER, LOT_NAMES, LOTS, START_MONEY, in_play
from .state import empty_state
from .turn import start_turn


def new_game(edition: str, colours: list[str], seed: str, rng: Rng) -> tuple[State, list[Event]]:
    """Deal, pay, insert the Game Over card, roll for the first player, run turn one's
    steps 1-5. Every draw comes from ``rng`` (the seed's position 0)."""
    state = empty_state(edition, colours, seed)
    events: list[Event] = []
    deck = list(LOT_NAMES)
    shuffle(rng, deck)
    deck = deal(state, deck, rng, events)
    state["deck"] = insert_game_over(deck)
    state["turn"] = first_player(state["players"], rng, events)
    start_turn(state, rng, events)
    return state, events


def deal(state: State, deck: list[str], rng: Rng, events: list[Event]) -> list[str]:
    """Two starting lots each: a marker on each, $20m minus the two printed dice, the cards
    discarded. Two players set F cards aside and shuffle them back afterwards."""
    aside: list[str] = []
    for seat in range(state["players"]):
        cards: list[str] = []
        while len(cards) < 2:
            card = deck.pop(0)
            if in_play(card, state["players"]):
                cards.append(card)
            else:
                aside.append(card)
                events.append({"type": "set_aside", "card": card})
        for card in cards:
            state["markers"][card] = seat
            state["discard"].append(card)
        state["money"][seat] = START_MONEY - sum(LOTS[card].die for card in cards)
        events.append({"type": "deal", "seat": seat, "cards": cards, "money": state["money"][seat]})
    if aside:
        deck.extend(aside)
        shuffle(rng, deck)
        events.append({"type": "shuffled_back", "cards": aside})
    return deck


def insert_game_over(deck: list[str]) -> list[str]:
    """Four roughly equal stacks (the first ones one card bigger when it does not divide);
    the Game Over card on top of the fourth, the other three on top of it."""
    size, extra = divmod(len(deck), 4)
    where = sum(size + (1 if i < extra else 0) for i in range(3))
    return [*deck[:where], GAME_OVER, *deck[where:]]


def first_player(players: int, rng: Rng, events: list[Event]) -> int:
    """Everyone rolls two dice; the tied highest roll one more die until one is highest."""
    rolls = {seat: [rng.die(), rng.die()] for seat in range(players)}
    for seat, dice in rolls.items():
        events.append({"type": "first_roll", "seat": seat, "dice": dice})
    totals = {seat: sum(dice) for seat, dice in rolls.items()}
    while True:
        best = max(totals.values())
        tied = [seat for seat, total in totals.items() if total == best]
        if len(tied) == 1:
            events.append({"type": "first_player", "seat": tied[0]})
            return tied[0]
        totals = {}
        for seat in tied:
            totals[seat] = rng.die()
            events.append({"type": "first_roll", "seat": seat, "dice": [totals[seat]], "tie": True})
