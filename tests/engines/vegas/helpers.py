"""Positions for the Vegas tests, built the way a rule book draws them.

A position starts from a real setup and is then arranged: notes moved from the pile to a
casino, dice moved from a hand to a casino, a roll written down. Every arrangement keeps the
invariants, so each test also checks that the engine agrees the position is sound."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence

from games.engines.base import Command, State
from games.engines.rng import ScriptedRng, SeededRng
from games.engines.vegas import ENGINE
from games.engines.vegas.rules import dice_left

ANNA, BENNO, CARLA, DENNY = 0, 1, 2, 3
NAMES = ["Anna", "Benno", "Carla", "Denny", "Emil"]
SEED = "0123456789abcdef" * 4


def start(players: int = 4, variant: str = "standard", seed: str = SEED) -> State:
    state, _ = ENGINE.new_game(players, {"variant": variant}, seed)
    return state


def set_notes(state: State, casino: int, notes: Sequence[int]) -> State:
    """Casino ``casino`` holds ``notes`` (in the order dealt); its old notes go to the pile."""
    box = state["casinos"][casino - 1]
    state["pile"].extend(box["notes"])
    box["notes"] = []
    for note in notes:
        state["pile"].remove(note)
        box["notes"].append(note)
    return state


def put_dice(state: State, casino: int, seat: int | str, count: int) -> State:
    """Move ``count`` dice of ``seat`` (or ``"white"`` from the spare/hands) to a casino."""
    box = state["casinos"][casino - 1]
    if seat == "white":
        _take_white(state, count)
        box["white"] += count
    else:
        assert isinstance(seat, int)
        assert state["dice"][seat] >= count, f"seat {seat} has only {state['dice'][seat]} dice"
        state["dice"][seat] -= count
        box["dice"][seat] += count
    return state


def _take_white(state: State, count: int) -> None:
    for _ in range(count):
        if state["spare_white"]:
            state["spare_white"] -= 1
            continue
        holder = max(range(state["players"]), key=lambda s: state["white"][s])
        assert state["white"][holder], "no white die left to place"
        state["white"][holder] -= 1


def empty_hand(state: State, seat: int, casino: int = 6) -> State:
    """Place every die ``seat`` holds (own and white) on ``casino``: the seat will be skipped."""
    box = state["casinos"][casino - 1]
    box["dice"][seat] += state["dice"][seat]
    box["white"] += state["white"][seat]
    state["dice"][seat] = 0
    state["white"][seat] = 0
    return state


def set_roll(state: State, seat: int, own: Iterable[int], white: Iterable[int] = ()) -> State:
    """``seat`` is to act with this roll; its hand is trimmed to the dice rolled (the rest
    go to casino 6, out of the way of the casino a test looks at)."""
    own, white = sorted(own), sorted(white)
    extra_own = state["dice"][seat] - len(own)
    extra_white = state["white"][seat] - len(white)
    assert extra_own >= 0 and extra_white >= 0, "the roll has more dice than the hand"
    put_dice(state, 6, seat, extra_own)
    state["white"][seat] -= extra_white
    state["casinos"][5]["white"] += extra_white
    state["active"] = seat
    state["roll"] = {"own": own, "white": white}
    return state


def sound(state: State) -> State:
    problems = ENGINE.check_invariants(state)
    assert not problems, problems
    return state


def play_random_game(
    players: int, variant: str, seed: str, bot: str = "random"
) -> tuple[list[State], list[tuple[int, Command]]]:
    """Every state of a bot game and the commands that led from one to the next."""
    state, _ = ENGINE.new_game(players, {"variant": variant}, seed)
    states: list[State] = [state]
    log: list[tuple[int, Command]] = []
    choose = ENGINE.bots[bot]
    while not state["finished"]:
        seat = ENGINE.to_act(state)[0]
        command = choose(state, seat, SeededRng(seed, f"bot {state['n']}"))
        state, _ = ENGINE.apply(state, seat, command)
        states.append(state)
        log.append((seat, command))
        assert len(log) < 1000, "the game does not end"
    return states, log


def frozen(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def clone(state: State) -> State:
    return copy.deepcopy(state)


def rolls(*dice: int) -> ScriptedRng:
    return ScriptedRng(dice=dice)


__all__ = ["dice_left"]
