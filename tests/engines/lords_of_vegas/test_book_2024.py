"""Every worked example of the 2024 rule book, with the book's numbers."""

from __future__ import annotations

import json

import pytest

from games.engines.base import IllegalCommand
from games.engines.lords_of_vegas import ENGINE
from games.engines.lords_of_vegas.board import GAME_OVER, LOTS, advance
from games.engines.lords_of_vegas.setup import deal, insert_game_over, new_game
from games.engines.lords_of_vegas.state import empty_state
from games.engines.rng import ScriptedRng, move_rng

from .helpers import money, of_type, play, position, said, score, seat

# -- steps 1-5: the D8 payout and the 8 -> 10 break --------------------------------------------

D8_BOARD = """
lords-of-vegas {edition}
seats: blue green yellow
turn: green
score: green=8 yellow=8
lots: A5=green
tiles: D9=sphinx:yellow6 C6=sphinx:green4 C9=sphinx:green2 C12=sphinx:blue2
tiles: B4=pioneer:green3 A2=albion:blue1
deck: D8
"""


def d8_position(edition: str = "2024"):
    return position(D8_BOARD.format(edition=edition))


@pytest.mark.parametrize("edition", ["2024", "classic"])
def test_it_pays_and_scores_the_d8_example(edition):
    state = d8_position(edition)
    state, events = play(state, "green", "end")
    assert [e["card"] for e in of_type(events, "card")] == ["D8"]
    assert state["markers"]["D8"] == seat(state, "yellow")
    # Parking lots $1m each; gold casinos pay $1m a pip; brown and purple pay nothing.
    assert money(state, "yellow") == 1 + 6
    assert money(state, "green") == 1 + 6
    assert money(state, "blue") == 2
    # Yellow scores 1 point (8 + 1 stays on 8); Green 3 points (8 + 3 reaches 10, not 12).
    scored = {e["seat"]: (e["points"], e["from"], e["to"]) for e in of_type(events, "scored")}
    assert scored == {seat(state, "yellow"): (1, 8, 8), seat(state, "green"): (3, 8, 10)}
    assert score(state, "yellow") == 8 and score(state, "green") == 10
    assert state["discard"][-1] == "D8" and state["drawn"] is None


def test_the_smallest_casino_scores_first():
    events = of_type(play(d8_position(), "green", "end")[1], "scored")
    assert [e["points"] for e in events] == [1, 3]


def test_a_strip_card_pays_the_casinos_touching_the_strip():
    state = d8_position()
    state["deck"].remove("A6")
    state["deck"].insert(0, "A6")  # A6 pays the Strip
    state, events = play(state, "green", "end")
    paying = {e["casino"][0] for e in of_type(events, "paid")}
    assert paying == {"B4", "C6"}  # the brown casino and the 3-tile gold one


def test_the_track_breaks():
    assert advance(8, 1) == 8
    assert advance(8, 2) == advance(8, 3) == 10
    assert advance(8, 4) == advance(8, 5) == 12
    assert advance(0, 3) == 3
    assert advance(81, 20) == 90


# -- build, sprawl -------------------------------------------------------------------------------

SPRAWL_BOARD = """
seats: red yellow blue
turn: red
money: red=100
lots: A2=red A3=yellow
"""


def test_build_a2():
    state, events = play(position(SPRAWL_BOARD), "red", "build A2 gold")
    assert money(state, "red") == 100 - 6
    assert state["tiles"]["A2"] == ["sphinx", 1, seat(state, "red"), 2]
    assert "A2" not in state["markers"]
    assert of_type(events, "build")[0]["cost"] == 6


def test_sprawl_a2_to_a5_costs_twice_the_price():
    state, _ = play(position(SPRAWL_BOARD), "red", "build A2 sphinx")
    state, _ = play(state, "red", "sprawl A5 from A2")
    assert money(state, "red") == 94 - 18
    assert state["tiles"]["A5"] == ["sphinx", 1, seat(state, "red"), 3]


def test_sprawl_into_a_lot_owned_by_another_player_is_refused():
    state, _ = play(position(SPRAWL_BOARD), "red", "build A2 sphinx")
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalCommand, match="A3 is owned by Yellow: you can only sprawl into"):
        ENGINE.apply(state, seat(state, "red"), ENGINE.parse("sprawl A3 from A2"))
    assert json.dumps(state, sort_keys=True) == before


def test_sprawl_from_a_raised_casino_pays_for_the_riser():
    state = position(SPRAWL_BOARD.replace("lots: A2=red A3=yellow", "lots: A3=yellow"))
    state["tiles"]["A2"] = ["sphinx", 2, seat(state, "red"), 2]
    state, _ = play(state, "red", "sprawl A5 from A2")
    assert money(state, "red") == 100 - 33
    assert state["tiles"]["A5"][:2] == ["sphinx", 2]


# -- remodel and reorganize ------------------------------------------------------------------------

REMODEL_BOARD = """
seats: red yellow blue
turn: red
money: red=30
tiles: A2=sphinx:red2 A5=sphinx:red3 A3=pioneer:yellow5
"""


def test_the_remodel_merge_makes_yellow_the_boss():
    state, events = play(position(REMODEL_BOARD), "red", "remodel A2 brown")
    assert money(state, "red") == 30 - 10
    assert [e["casino"] for e in of_type(events, "merge")] == [["A2", "A3", "A5"]]
    assert of_type(events, "boss")[-1]["seat"] == seat(state, "yellow")
    view = ENGINE.view(state, None)
    assert view["casinos"][0]["boss"] == seat(state, "yellow")


def test_the_ten_million_reorganize():
    state, _ = play(position(REMODEL_BOARD), "red", "remodel A2 brown")
    # Rolled in board order: A2 (Red), A3 (Yellow), A5 (Red).
    state, events = play(state, "red", "reorganize A3", dice=[5, 4, 1])
    assert money(state, "red") == 20 - 10
    assert of_type(events, "reorganize")[0]["cost"] == 10
    assert ENGINE.view(state, None)["casinos"][0]["boss"] == seat(state, "red")
    with pytest.raises(IllegalCommand, match="already reorganized this turn"):
        ENGINE.apply(state, seat(state, "red"), ENGINE.parse("reorganize A2"))


def test_no_die_is_reorganized_twice_even_after_a_merge():
    state, _ = play(position(REMODEL_BOARD), "red", "reorganize A2", dice=[1, 1])
    state, _ = play(state, "red", "remodel A2 brown")
    assert money(state, "red") == 30 - 5 - 10
    with pytest.raises(IllegalCommand, match="already reorganized this turn"):
        ENGINE.apply(state, 0, ENGINE.parse("reorganize A3"))


# -- raise ---------------------------------------------------------------------------------------

RAISE_BOARD = """
seats: purple red yellow
turn: purple
money: purple=60
tiles: C1=albion:purple4 C4=albion:purple2
"""


def test_the_three_player_raise_twice():
    state, _ = play(position(RAISE_BOARD), "purple", "raise C1")
    assert money(state, "purple") == 30
    state, _ = play(state, "purple", "raise C4")
    assert money(state, "purple") == 0
    assert state["tiles"]["C1"][1] == state["tiles"]["C4"][1] == 3
    state["money"][0] = 100
    with pytest.raises(IllegalCommand, match="already 3 tiles high, the most in a 3-player"):
        ENGINE.apply(state, 0, ENGINE.parse("raise C1"))


def test_a_raise_merges_with_a_neighbour_of_the_new_height():
    text = RAISE_BOARD.replace("C4=albion:purple2", "C2=albion^2:red5 C5=vega:purple2")
    state = position(text)
    state, events = play(state, "purple", "raise C1")
    assert of_type(events, "merge")[0]["casino"] == ["C1", "C2"]
    assert of_type(events, "boss")[-1]["seat"] == seat(state, "red")


# -- gamble --------------------------------------------------------------------------------------

GAMBLE_BOARD = """
seats: green yellow red
turn: yellow
money: green=7 yellow=10
tiles: B1=vega^2:green3 B2=vega^2:green2
"""


def test_yellow_rolls_12_and_takes_all_of_greens_7_million():
    state = position(GAMBLE_BOARD)
    with pytest.raises(IllegalCommand, match=r"at most \$20m"):
        ENGINE.apply(state, seat(state, "yellow"), ENGINE.parse("gamble B1 21"))
    state, events = play(state, "yellow", "gamble B1 4", dice=[6, 6])
    assert money(state, "green") == 0
    assert money(state, "yellow") == 17
    assert of_type(events, "gamble")[0]["total"] == 12
    with pytest.raises(IllegalCommand, match="already gambled this turn"):
        ENGINE.apply(state, seat(state, "yellow"), ENGINE.parse("gamble B1 1"))


@pytest.mark.parametrize(
    ("dice", "yellow", "green"),
    [([1, 2], 14, 3), ([5, 6], 14, 3), ([1, 1], 17, 0), ([3, 4], 6, 11), ([4, 4], 6, 11)],
)
def test_the_field_bet(dice, yellow, green):
    state, _ = play(position(GAMBLE_BOARD), "yellow", "gamble B1 4", dice=dice)
    assert (money(state, "yellow"), money(state, "green")) == (yellow, green)


def test_nobody_gambles_at_their_own_casino_or_one_without_a_boss():
    state = position(GAMBLE_BOARD.replace("turn: yellow", "turn: green"))
    with pytest.raises(IllegalCommand, match="you are the boss"):
        ENGINE.apply(state, 0, ENGINE.parse("gamble B1 1"))
    state = position(GAMBLE_BOARD.replace("B2=vega^2:green2", "C1=vega:-"))
    with pytest.raises(IllegalCommand, match="no boss"):
        ENGINE.apply(state, seat(state, "yellow"), ENGINE.parse("gamble C1 1"))


# -- ties ----------------------------------------------------------------------------------------

TIE_BOARD = """
seats: green red yellow
turn: green
money: green=20
tiles: C1=sphinx:green4 C4=sphinx:green5 C2=pioneer:red5 C5=pioneer:red2 C8=pioneer:yellow2
"""


def test_the_tie_reroll_after_a_remodel():
    state, events = play(position(TIE_BOARD), "green", "remodel C1 brown", dice=[3, 3])
    assert money(state, "green") == 10
    rerolls = of_type(events, "tie_reroll")
    assert [(r["lot"], r["value"]) for r in rerolls[0]["rolls"]] == [("C2", 3), ("C4", 3)]
    assert len(rerolls) == 1
    assert of_type(events, "boss")[-1]["seat"] == seat(state, "green")


def test_tie_rerolls_continue_until_one_player_is_highest():
    state, events = play(position(TIE_BOARD), "green", "remodel C1 brown", dice=[6, 6, 2, 1])
    assert len(of_type(events, "tie_reroll")) == 2
    assert of_type(events, "boss")[-1]["seat"] == seat(state, "green")  # 4 beats 2 and 1


# -- the long trade ------------------------------------------------------------------------------

TRADE_BOARD = """
seats: black blue green red
turn: black
money: black=29 blue=10 green=20 red=10
lots: A5=black D2=black
tiles: A1=tivoli:black3 A2=tivoli:black2 A3=tivoli:black5 A4=tivoli:black4
tiles: A6=tivoli:black6 B4=tivoli:blue6 B5=tivoli:red1 B6=tivoli:red1 E4=tivoli:green4
tiles: D1=sphinx:green6 D4=sphinx:green4
"""

LONG_TRADE = (
    "trade green pays black 7, black gives lot D2 to green, blue gives die B4 to black, "
    "do remodel B4 vega, do sprawl B2 from B4, black gives die B4 to blue, "
    "black gives die B2 to blue, do build A5 tivoli"
)


def trade_position():
    return position(TRADE_BOARD)


def test_the_long_trade_of_black_blue_green_and_red():
    state = trade_position()
    command = ENGINE.parse(LONG_TRADE)
    parties = ENGINE.trade_parties(state, 0, command)
    assert parties == frozenset({seat(state, c) for c in ("black", "blue", "green")})
    with pytest.raises(IllegalCommand, match="only 0"):  # all Tivoli tiles are on the board
        ENGINE.apply(state, 0, ENGINE.parse("build A5 tivoli"))
    state, events = play(state, None, LONG_TRADE)
    assert of_type(events, "trade_stopped") == []
    assert money(state, "black") == 29 + 7 - 15 - 12 - 9 == 0
    assert money(state, "green") == 13
    assert state["markers"]["D2"] == seat(state, "green")
    blue, red = seat(state, "blue"), seat(state, "red")
    assert {lot: state["tiles"][lot] for lot in ("B2", "B4", "B5", "B6")} == {
        "B2": ["vega", 1, blue, 2],
        "B4": ["vega", 1, blue, 6],
        "B5": ["vega", 1, red, 1],
        "B6": ["vega", 1, red, 1],
    }
    casinos = {c["lots"][0]: c for c in ENGINE.view(state, None)["casinos"]}
    assert casinos["B2"]["boss"] == blue and casinos["B2"]["points"] == 4
    assert casinos["A1"]["lots"] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert sum(1 for t in state["tiles"].values() if t[0] == "tivoli") == 7


def test_a_trade_stops_at_the_step_that_cannot_happen():
    state = trade_position()
    text = "trade green pays black 7, red pays blue 50, blue gives die B4 to black"
    state, events = play(state, None, text)
    assert money(state, "black") == 36  # the first step stands
    assert state["tiles"]["B4"][2] == seat(state, "blue")  # the third does not happen
    stopped = of_type(events, "trade_stopped")[0]
    assert stopped["step"] == 2 and "Red has only $10m" in said(stopped)


def test_trade_actions_need_the_active_players_turn():
    state = trade_position()
    state["over"] = "card"
    with pytest.raises(IllegalCommand, match="game is over"):
        ENGINE.apply(state, 1, ENGINE.parse("trade blue pays red 1"))


# -- setup and the two-player F block ------------------------------------------------------


def test_starting_money_is_20_minus_the_printed_dice():
    state = empty_state("2024", ["black", "blue"], "00")
    deck = deal(
        state, ["A4", "A2", "B1", "B2", *[c for c in LOTS if c[0] in "CDE"]], ScriptedRng(), []
    )
    assert LOTS["A4"].die == 4 and LOTS["A2"].die == 2
    assert state["money"][0] == 14
    assert state["money"][1] == 20 - 5 - 2
    assert deck[0] == "C1"


def test_two_players_set_f_cards_aside_in_setup_and_shuffle_them_back():
    state = empty_state("2024", ["black", "blue"], "00")
    events: list[dict] = []
    cards = ["F1", "A1", "F2", "A2", "B1", "F3", "B2", "C1", "C2"]
    # Fisher-Yates over the 5 cards left: picks i keep the order.
    deck = deal(state, cards, ScriptedRng(picks=[4, 3, 2, 1]), events)
    assert sorted(state["markers"]) == ["A1", "A2", "B1", "B2"]
    assert [e["card"] for e in of_type(events, "set_aside")] == ["F1", "F2", "F3"]
    assert deck == ["C1", "C2", "F1", "F2", "F3"]
    assert insert_game_over(deck).index(GAME_OVER) == 4  # stacks of 2, 1, 1, 1


def test_a_two_player_game_never_puts_anything_on_the_f_block():
    state, _ = new_game("2024", ["black", "blue"], "ab" * 32, move_rng("ab" * 32, 0))
    assert not [lot for lot in state["markers"] if lot.startswith("F")]
    assert len(state["deck"]) + len(state["discard"]) == 49


def test_building_on_the_f_block_of_a_two_player_game_says_it_is_out_of_play():
    """It said "F1 is not your parking lot", as if the player could own one there."""
    state, _ = new_game("2024", ["black", "blue"], "ab" * 32, move_rng("ab" * 32, 0))
    mover = ENGINE.to_act(state)[0]
    with pytest.raises(IllegalCommand, match="F1 is in the F block, out of play"):
        ENGINE.apply(state, mover, ENGINE.parse("build F1 sphinx"))


def test_a_two_player_f_draw_pays_and_draws_again():
    state = position(
        """
        seats: black blue
        turn: black
        lots: A1=black
        tiles: C2=sphinx:blue4 C5=albion:black2
        deck: F3 F1 D8
        """
    )
    state, events = play(state, "black", "end")
    assert [e["card"] for e in of_type(events, "card")] == ["F3", "F1", "D8"]
    assert len(of_type(events, "out_of_play")) == 2
    assert [e["amount"] for e in of_type(events, "parking")] == [1, 1, 1, 1]  # D8 lot too
    assert money(state, "blue") == 4 + 4 + 1  # C2 pays on F3 (gold) and D8 (gold)
    assert money(state, "black") == 3 + 2  # A1 three times, C5 on F1 (purple)
    assert state["markers"] == {"A1": 0, "D8": 1}
    assert score(state, "blue") == 2
    assert "F3" in state["discard"] and "F1" in state["discard"]


def test_first_player_rolls_and_ties():
    seed = "cd" * 32
    rng = ScriptedRng(dice=[6, 6, 6, 6, 1, 1, 2, 5], fallback=move_rng(seed, 0))
    picks = list(range(47, 0, -1))
    rng.picks = picks
    state, events = new_game("2024", ["black", "blue", "green"], seed, rng)
    rolls = of_type(events, "first_roll")
    assert [r["dice"] for r in rolls] == [[6, 6], [6, 6], [1, 1], [2], [5]]
    assert state["turn"] == 1 and of_type(events, "first_player")[0]["seat"] == 1
    assert state["discard"][:6] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert state["deck"].index(GAME_OVER) == 32 - 1  # 42 cards: stacks 11 11 10 10; one drawn


# -- the end ---------------------------------------------------------------------------------------

END_BOARD = """
seats: black blue green
turn: green
money: black=5 blue=5 green=5
score: black=7 blue=5
lots: A1=black A2=black
tiles: B1=vega:blue3 A3=albion:black2 C5=sphinx:green6
deck: GO
"""


def test_the_game_over_card_ends_the_game():
    state, events = play(position(END_BOARD), "green", "end")
    assert state["over"] == "card"
    assert money(state, "black") == 5 + 2 + 2  # parking lots, then the Strip casino A3
    assert money(state, "blue") == 5 + 3  # B1 touches the Strip
    assert money(state, "green") == 5  # C5 does not
    assert score(state, "black") == 7 + 1 and score(state, "blue") == 5 + 1
    assert ENGINE.to_act(state) == []
    with pytest.raises(IllegalCommand, match="the game is over"):
        ENGINE.apply(state, 0, ENGINE.parse("build A1 vega"))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert [p.seat for p in outcome.placings] == [0, 1, 2]
    assert outcome.placings[0].detail == {"points": 8, "money": 9}
    assert of_type(events, "game_end")[0]["reason"] == "card"


def test_ties_on_points_go_to_money_and_full_ties_share_a_rank():
    text = END_BOARD.replace("black=7 blue=5", "black=7 blue=7").replace("blue=5", "blue=6")
    state, _ = play(position(text), "green", "end")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [(p.seat, p.rank) for p in outcome.placings] == [(0, 1), (1, 1), (2, 3)]
    assert outcome.winners == (0, 1)
    text = END_BOARD.replace("black=7 blue=5", "black=7 blue=7")
    state, _ = play(position(text), "green", "end")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [(p.seat, p.rank) for p in outcome.placings] == [(0, 1), (1, 2), (2, 3)]


def test_reaching_90_ends_the_game_after_scoring():
    state = position(
        """
        seats: black blue green
        turn: green
        score: black=81
        tiles: C1=albion^3:black4 C4=albion^3:black1 C7=albion^3:blue2 B1=albion:green2
        deck: A2
        """
    )
    state, events = play(state, "green", "end")
    assert score(state, "black") == 90
    assert state["over"] == "track"
    assert of_type(events, "scored")[-1]["to"] == 90
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)
