"""Limited components, pending decisions, preferences, and who the game waits for."""

from __future__ import annotations

import json

import pytest

from games.engines.base import IllegalCommand
from games.engines.lords_of_vegas import ENGINE, Move, Place

from .helpers import of_type, play, position, said

TWELVE = " ".join(
    f"{lot}={'tivoli' if i < 6 else 'pioneer'}:red{die}"
    for i, (lot, die) in enumerate([
        ("C1", 4), ("C4", 2), ("C7", 2), ("C10", 3), ("E1", 3), ("E4", 4),
        ("E2", 2), ("E5", 3), ("A1", 3), ("A4", 4), ("B3", 3), ("B6", 4),
    ])
)  # fmt: skip

FULL = f"""
seats: red yellow
turn: red
money: red=50 yellow=50
lots: A2=red D1=red D2=red D3=red D4=red D5=red D6=red D7=red D8=red D9=red
tiles: {TWELVE}
tiles: B2=sphinx:yellow6
"""


def test_build_with_all_twelve_dice_on_the_board_says_what_to_add():
    state = position(FULL)
    with pytest.raises(IllegalCommand, match=r"add 'moving <lot>'.*e\.g\. 'build A2 vega moving"):
        ENGINE.apply(state, 0, ENGINE.parse("build A2 vega"))
    state, events = play(state, "red", "build A2 vega moving C1")
    assert state["tiles"]["C1"][2:] == [None, None]
    assert state["tiles"]["A2"] == ["vega", 1, 0, 2]
    assert of_type(events, "die_moved")[0]["from"] == "C1"


def test_moving_is_refused_while_dice_are_free():
    state = position(FULL.replace("tiles: B2", "tiles: A6=albion:yellow1 B2"))
    state["tiles"].pop("C1")
    with pytest.raises(IllegalCommand, match="leave out 'moving C4'"):
        ENGINE.apply(state, 0, ENGINE.parse("build A2 vega moving C4"))


def test_taking_over_a_tile_with_all_dice_on_the_board_waits_for_a_choice():
    state = position(FULL.replace("turn: red", "turn: yellow") + "deck: B2\n")
    state, events = play(state, "yellow", "end")
    assert ENGINE.to_act(state) == [0]
    assert state["pending"] == [{"kind": "move", "seat": 0, "piece": "die", "lot": "B2"}]
    assert state["drawn"] == "B2" and ENGINE.check_invariants(state) == []
    with pytest.raises(IllegalCommand, match="waiting for Red"):
        ENGINE.apply(state, 0, ENGINE.parse("build A2 vega moving C1"))
    assert ENGINE.default_command(state, 0) == Move("die", "C4")  # the lowest, cheapest die
    assert set(ENGINE.legal_commands(state, 0)) == {
        Move("die", lot) for lot, t in state["tiles"].items() if t[2] == 0
    }
    state, events = play(state, "red", "move die C10")
    assert state["tiles"]["B2"] == ["sphinx", 1, 0, 6]  # keeps Yellow's value
    assert state["tiles"]["C10"][2:] == [None, None]
    assert ENGINE.to_act(state) == [0] and state["pending"] == []
    assert of_type(events, "paid")  # steps 2-5 ran after the answer (B2 pays Tivoli)


def test_gaining_an_eleventh_lot_moves_a_marker():
    state = position(FULL.replace("turn: red", "turn: yellow") + "deck: E3\n")
    state, _ = play(state, "yellow", "end")
    assert state["pending"][0]["piece"] == "lot"
    with pytest.raises(IllegalCommand, match="which lot marker moves to E3"):
        ENGINE.apply(state, 0, ENGINE.parse("move die C1"))
    state, events = play(state, "red", "move lot D9")
    assert state["markers"]["E3"] == 0 and "D9" not in state["markers"]
    assert of_type(events, "parking")[0]["amount"] == 10


REORG = """
seats: red yellow blue
turn: red
money: red=50
tiles: C1=albion:red1 C4=albion:red1 C7=albion:yellow2 C10=albion:yellow1
discard: C10
"""


def test_automatic_placement_puts_high_values_on_drawn_tiles():
    state, _events = play(position(REORG), "red", "reorganize C1", dice=[2, 3, 1, 4])
    # Yellow rolled 1 (C7) and 4 (C10); C10's card is drawn, so the 4 goes there.
    assert state["tiles"]["C10"][3] == 4 and state["tiles"]["C7"][3] == 1
    assert ENGINE.to_act(state) == [0]


def test_a_seat_that_asks_places_its_rerolled_dice():
    state, _ = play(position(REORG), "yellow", "prefer place ask")
    state, _events = play(state, "red", "reorganize C1", dice=[2, 3, 1, 4])
    assert ENGINE.to_act(state) == [1]
    assert state["pending"] == [{"kind": "place", "seat": 1, "lots": ["C7", "C10"]}]
    options = ENGINE.legal_commands(state, 1)
    assert Place((("C7", 1), ("C10", 4))) in options and len(options) == 2
    with pytest.raises(IllegalCommand, match="your rerolled values are 4, 1"):
        ENGINE.apply(state, 1, ENGINE.parse("place C7=4 C10=4"))
    with pytest.raises(IllegalCommand, match="waiting for Yellow"):
        ENGINE.apply(state, 0, ENGINE.parse("end"))
    state, _ = play(state, "yellow", "place C7=4 C10=1")
    assert state["tiles"]["C7"][3] == 4 and ENGINE.to_act(state) == [0]


def test_a_trade_can_happen_while_a_decision_waits_but_no_action():
    state, _ = play(position(REORG), "yellow", "prefer place ask")
    state, _ = play(state, "red", "reorganize C1", dice=[2, 3, 1, 4])
    state, events = play(state, None, "trade red pays yellow 1")
    assert of_type(events, "trade_done")
    with pytest.raises(IllegalCommand, match="cannot include actions"):
        ENGINE.apply(state, None, ENGINE.parse("trade do build A1 vega"))
    state, events = play(state, None, "trade yellow gives die C7 to red")
    assert "waits to be placed" in said(of_type(events, "trade_stopped")[0])


def test_refusals_change_nothing_and_name_the_input():
    state = position(REORG)
    before = json.dumps(state, sort_keys=True)
    cases = {
        "build A1 vega": "A1 is not your parking lot",
        "sprawl A1 from C1": "you are not the boss of the casino at C1",
        "remodel C1 vega": "only its boss can remodel",
        "gamble C7 99": r"at most \$20m",
        "raise C7": "you are not the boss",
        "move die C1": "nothing asks you",
        "place C1=1 C4=1": "nothing asks you",
        "layoff yes": "no bet",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalCommand, match=reason):
            ENGINE.apply(state, 0, ENGINE.parse(text))
    with pytest.raises(IllegalCommand, match="it is Red's turn"):
        ENGINE.apply(state, 1, ENGINE.parse("end"))
    assert json.dumps(state, sort_keys=True) == before


def test_timeouts_end_the_turn():
    state = position(REORG)
    assert ENGINE.default_command(state, 0) == ENGINE.parse("end")
    assert ENGINE.trade_parties(state, 0, ENGINE.parse("end")) is None


def test_a_trade_that_frees_a_die_lets_step_one_go_on():
    state = position(FULL.replace("turn: red", "turn: yellow") + "deck: B2\n")
    state, _ = play(state, "yellow", "end")
    assert state["pending"]
    state, events = play(state, None, "trade red gives die C1 to yellow")
    assert state["pending"] == [] and state["drawn"] is None
    assert state["tiles"]["B2"][2] == 0 and state["tiles"]["C1"][2] == 1
    assert of_type(events, "take_over") and of_type(events, "paid")
