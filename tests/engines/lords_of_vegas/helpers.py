"""Shared helpers: set up a position, play a command with dictated dice."""

from __future__ import annotations

from typing import Any

from games.engines.lords_of_vegas import ENGINE, from_position
from games.engines.rng import ScriptedRng

State = dict[str, Any]


def position(text: str) -> State:
    return from_position(text)


def seat(state: State, colour: str) -> int:
    return int(state["colours"].index(colour))


def play(
    state: State, colour: str | None, text: str, dice: list[int] | tuple[int, ...] = ()
) -> tuple[State, list[dict[str, Any]]]:
    """Apply ``text`` for the seat playing ``colour`` (None: the system), with dice dictated;
    every scripted die must be used, and the result must keep every invariant."""
    rng = ScriptedRng(dice=dice)
    who = None if colour is None else seat(state, colour)
    new, events = ENGINE.apply(state, who, ENGINE.parse(text), rng=rng)
    assert rng.dice == [], f"unused dice {rng.dice}"
    assert ENGINE.check_invariants(new) == []
    return new, events


def money(state: State, colour: str) -> int:
    return int(state["money"][seat(state, colour)])


def score(state: State, colour: str) -> int:
    return int(state["score"][seat(state, colour)])


def said(event: dict[str, Any], names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di")) -> str:
    """An event as a player reads it (in the active language: English in the tests)."""
    return str(ENGINE.describe(event, names))


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
