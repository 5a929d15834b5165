"""What must hold in every Vegas state; the self-play command and the tests check it after
every command, so a rules bug shows up as a sentence rather than as a strange game."""

from __future__ import annotations

from collections import Counter

from games.engines.base import State
from games.engines.vegas.commands import CASINOS
from games.engines.vegas.rules import (
    ALL_NOTES,
    CASINO_MINIMUM,
    DICE_PER_PLAYER,
    ROUNDS,
    WHITE_DICE,
    dice_left,
    white_per_player,
)


def check_invariants(state: State) -> list[str]:
    """Every broken invariant as a sentence; empty when the state is sound. (That the state
    is JSON is checked by the callers, which round-trip it anyway.)"""
    problems: list[str] = []
    for check in _CHECKS:
        problems.extend(check(state))
    return problems


def _notes_conserved(state: State) -> list[str]:
    """The 54 notes are in the pile, on a casino or won; none is created or lost."""
    everywhere = list(state["pile"])
    for casino in state["casinos"]:
        everywhere.extend(casino["notes"])
    for won in state["won"]:
        everywhere.extend(won)
    if Counter(everywhere) == Counter(ALL_NOTES):
        return []
    return [
        f"notes are not conserved: {len(everywhere)} notes totalling ${sum(everywhere):,} "
        f"instead of {len(ALL_NOTES)} totalling ${sum(ALL_NOTES):,}"
    ]


def _dice_counted(state: State) -> list[str]:
    """8 dice of each colour, and the variant's 8 white dice, are in hand or on a casino."""
    problems: list[str] = []
    players = state["players"]
    for seat in range(players):
        placed = sum(casino["dice"][seat] for casino in state["casinos"])
        if state["dice"][seat] < 0 or placed + state["dice"][seat] != DICE_PER_PLAYER:
            problems.append(
                f"seat {seat} has {state['dice'][seat]} dice in hand and {placed} "
                f"on the casinos, not {DICE_PER_PLAYER} in all"
            )
    whites = white_per_player(state["variant"], players)
    expected_white = WHITE_DICE if whites else 0
    white = sum(state["white"]) + state["spare_white"] + sum(c["white"] for c in state["casinos"])
    if white != expected_white or min(state["white"], default=0) < 0:
        problems.append(f"{white} white dice are in play instead of {expected_white}")
    return problems


def _casinos_dealt(state: State) -> list[str]:
    """While the game runs each casino was dealt up to $50,000 and not one note more."""
    if state["finished"]:
        return []
    problems: list[str] = []
    for number, casino in zip(CASINOS, state["casinos"], strict=True):
        notes = casino["notes"]
        short = sum(notes) < CASINO_MINIMUM and state["pile"]
        if short or sum(notes[:-1]) >= CASINO_MINIMUM:
            problems.append(f"casino {number} holds {notes}, not a deal up to ${CASINO_MINIMUM:,}")
    return problems


def _turn_consistent(state: State) -> list[str]:
    """While the game runs: a round 1-4, the active seat has dice and rolled exactly them."""
    if state["finished"]:
        return []
    problems: list[str] = []
    if not 1 <= state["round"] <= ROUNDS:
        problems.append(f"round {state['round']} is not between 1 and {ROUNDS}")
    active, roll = state["active"], state["roll"]
    if not isinstance(active, int) or not 0 <= active < state["players"]:
        return [*problems, f"the active seat {active!r} is not a seat"]
    if not dice_left(state, active):
        problems.append(f"the active seat {active} has no dice left")
    if roll is None:
        return [*problems, f"the active seat {active} has no roll"]
    if len(roll["own"]) != state["dice"][active] or len(roll["white"]) != state["white"][active]:
        problems.append(f"the roll {roll} does not match seat {active}'s dice in hand")
    if any(not 1 <= d <= 6 for d in roll["own"] + roll["white"]):
        problems.append(f"the roll {roll} has a face outside 1-6")
    if len(state["casinos"]) != len(CASINOS):
        problems.append(f"{len(state['casinos'])} casinos instead of {len(CASINOS)}")
    return problems


def _ended(state: State) -> list[str]:
    """After the last payout every die is back and every casino is empty."""
    if not state["finished"]:
        return []
    problems: list[str] = []
    if state["round"] != ROUNDS:
        problems.append(f"the game ended in round {state['round']}, not {ROUNDS}")
    if state["active"] is not None or state["roll"] is not None:
        problems.append("a finished game still has an active seat or a roll")
    for number, casino in zip(CASINOS, state["casinos"], strict=True):
        if casino["notes"] or any(casino["dice"]) or casino["white"]:
            problems.append(f"casino {number} still holds notes or dice after the last payout")
    return problems


_CHECKS = (_notes_conserved, _dice_counted, _casinos_dealt, _turn_consistent, _ended)
