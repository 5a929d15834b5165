"""The turn marker (the timeout policy's "one miss, one turn"): answering a decision keeps
the turn; ``end`` passes it on and changes the marker."""

from __future__ import annotations

from games.engines.lords_of_vegas import ENGINE

from .helpers import play, position
from .test_decisions import FULL

TWO_DECIDE = """
seats: red yellow blue
turn: red
money: red=50
tiles: C1=albion:red1 C4=albion:red1 C7=albion:yellow2 C10=albion:yellow1
tiles: C2=albion:blue3 C5=albion:blue5
pending: place:yellow:C7,C10 place:blue:C2,C5
"""


def test_the_active_player_answering_their_decision_keeps_the_turn_and_end_ends_it() -> None:
    state = position(FULL.replace("turn: red", "turn: yellow") + "deck: B2\n")
    state, _ = play(state, "yellow", "end")
    assert ENGINE.to_act(state) == [0] and state["pending"]  # Red decides in their own turn
    marker = ENGINE.turn_marker(state)
    answered, _ = ENGINE.apply(state, 0, ENGINE.default_command(state, 0))
    assert ENGINE.to_act(answered) == [0] and not answered["pending"]
    assert ENGINE.turn_marker(answered) == marker
    ended, _ = ENGINE.apply(answered, 0, ENGINE.default_command(answered, 0))
    assert ENGINE.to_act(ended) == [1]
    assert ENGINE.turn_marker(ended) != marker


def test_others_answering_decisions_do_not_end_the_turn() -> None:
    state = position(TWO_DECIDE)
    marker = ENGINE.turn_marker(state)
    for seat in (1, 2):
        state, _ = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
        assert ENGINE.turn_marker(state) == marker
    assert ENGINE.to_act(state) == [0]
