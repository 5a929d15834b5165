"""An audit of the engine against the books, rule by rule: the cases the book examples do not
cover, and the discrepancies the audit found (each test names the book's words)."""

from __future__ import annotations

import json
import re

import pytest

from games.engines.base import IllegalCommand
from games.engines.lords_of_vegas import ENGINE
from games.engines.lords_of_vegas.views import describe_view

from .helpers import money, of_type, play, position, score, seat

NAMES = ["Red", "Yellow", "Blue", "Green"]


def sentences(events):
    return [str(ENGINE.describe(e, NAMES)) for e in events]


# -- step 1: taking the drawn lot ---------------------------------------------------------------

TAKE_BOARD = """
seats: red yellow blue
turn: blue
tiles: A2=vega:yellow5 A3=vega:blue4 B1=sphinx:- C1=albion:red2 C2=albion:blue6
deck: {card}
"""


def take(card):
    return play(position(TAKE_BOARD.format(card=card)), "blue", "end")


def test_a_tile_with_another_players_die_is_taken_keeping_the_value():
    state, events = take("A2")
    assert state["tiles"]["A2"] == ["vega", 1, seat(state, "red"), 5]
    assert "Red takes over A2 from Yellow, keeping its 5." in sentences(events)


def test_a_tile_without_a_die_gets_one_at_the_printed_value():
    state, events = take("B1")  # B1 shows a 5
    assert state["tiles"]["B1"] == ["sphinx", 1, seat(state, "red"), 5]
    assert "Red takes over B1, a tile with no die, with the printed 5." in sentences(events)


def test_a_tile_with_your_own_die_is_left_alone():
    state, events = take("C1")
    assert state["tiles"]["C1"] == ["albion", 1, seat(state, "red"), 2]
    assert of_type(events, "take_over") == []


def test_a_take_over_that_ties_the_boss_rerolls_the_tied_dice():
    board = TAKE_BOARD.replace("A3=vega:blue4", "A3=vega:blue5")
    state, events = play(position(board.format(card="A2")), "blue", "end", dice=[6, 2])
    rolls = of_type(events, "tie_reroll")[0]["rolls"]
    assert [(r["lot"], r["value"]) for r in rolls] == [("A2", 6), ("A3", 2)]
    assert state["tiles"]["A2"][2:] == [seat(state, "red"), 6]


# -- steps 2-5 ----------------------------------------------------------------------------------


def test_a_casino_without_dice_pays_nobody_and_scores_for_nobody():
    state = position(
        """
        seats: red yellow
        turn: yellow
        tiles: A1=sphinx:- A2=sphinx:- B1=sphinx:yellow1
        deck: D8
        """
    )
    state, events = play(state, "yellow", "end")  # D8 pays Sphinx
    assert [e["casino"] for e in of_type(events, "paid")] == [["B1"]]
    assert [e["casino"] for e in of_type(events, "scored")] == [["B1"]]
    assert score(state, "yellow") == 1


def test_the_game_over_card_drawn_between_two_player_f_cards_ends_the_game():
    state = position(
        """
        seats: black blue
        turn: black
        lots: A1=black
        tiles: B1=sphinx:blue4
        deck: F3 GO D8
        """
    )
    state, events = play(state, "black", "end")
    assert [e["card"] for e in of_type(events, "card")] == ["F3", "GO"]
    assert state["over"] == "card"
    # F3 (gold) pays and scores B1; the Game Over card pays the lots and the Strip again.
    assert money(state, "blue") == 4 + 4 and score(state, "blue") == 2
    assert money(state, "black") == 2


# -- actions: conditions and costs --------------------------------------------------------------

ACT_BOARD = """
seats: red yellow blue
turn: red
money: red=100 yellow=100
lots: A1=red B3=yellow
tiles: A2=sphinx^2:red4 B1=vega^2:yellow3 B2=vega^2:yellow2 C1=tivoli:yellow3 C2=tivoli:red1
"""


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("sprawl A1 from A2", "A1 is owned by Red: you can only sprawl into an unowned lot"),
        ("sprawl B3 from B1", "you are not the boss of the casino at B1"),
        ("sprawl A6 from A2", "A6 is not next to the casino at A2"),
        ("reorganize B1", "you have no die in the casino at B1"),
        ("gamble B1 21", r"at most \$20m at the 4-tile casino"),
        ("gamble C2 1", "gamble at another player's casino"),
        ("build A2 vega", "A2 already has a casino tile"),
    ],
)
def test_refusals_name_the_command_and_the_reason(text, reason):
    state = position(ACT_BOARD)
    if text == "gamble C2 1":  # make Red the boss of C1-C2
        state["tiles"]["C2"][3] = 6
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalCommand) as refusal:
        ENGINE.apply(state, seat(state, "red"), ENGINE.parse(text))
    message = str(refusal.value)
    assert message.startswith(f"{text!r}: "), message
    assert re.search(reason, message), message
    assert json.dumps(state, sort_keys=True) == before


def test_remodelling_a_raised_casino_costs_5_a_space():
    state, _ = play(position(ACT_BOARD), "red", "remodel A2 albion")
    assert money(state, "red") == 95 and state["tiles"]["A2"] == ["albion", 2, 0, 4]


def test_gambling_bets_up_to_5_a_tile_risers_included():
    state, _ = play(position(ACT_BOARD), "red", "gamble B1 20", dice=[3, 4])
    assert money(state, "red") == 80 and money(state, "yellow") == 120


# -- reorganize: no die twice in a turn ---------------------------------------------------------

FULL_DICE = " ".join(f"C{i}=tivoli:red{(i % 5) + 1}" for i in range(1, 9))
FULL_BOARD = f"""
seats: red yellow
turn: red
money: red=100
lots: A1=red D4=red
tiles: {FULL_DICE} D1=albion:red1 D2=pioneer:red2 D3=pioneer:red3 E1=pioneer:red4
"""


def test_a_reorganized_die_that_moves_stays_reorganized():
    """ "No die may be reorganized more than once in a turn": the die itself, wherever it
    goes (here to a new tile, when all 12 dice are on the board)."""
    state, _ = play(position(FULL_BOARD), "red", "reorganize D1", dice=[5])
    state, _ = play(state, "red", "build A1 vega moving D1")
    assert state["tiles"]["D1"][2:] == [None, None] and state["tiles"]["A1"][3] == 3
    with pytest.raises(IllegalCommand, match="already reorganized this turn"):
        ENGINE.apply(state, 0, ENGINE.parse("reorganize A1"))
    # The tile the die left joins a casino none of whose dice was reorganized.
    state, _ = play(state, "red", "build D4 albion moving C1")
    state, _ = play(state, "red", "reorganize D4", dice=[2])
    assert state["tiles"]["D4"][3] == 2


# -- the classic lay-off ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "boss_pays", "bank_pays"),
    [([1, 2], 2, 3), ([6, 6], 5, 5), ([1, 1], 5, 5)],
)
def test_a_laid_off_bet_splits_the_win_in_half_rounded_down(dice, boss_pays, bank_pays):
    """ "If the gambler wins, the boss only pays half (round down) and the bank pays the
    rest": half of what the boss owes, so a $5m bet doubled costs the boss $5m of $10m."""
    state = position(
        """
        lords-of-vegas classic
        seats: green yellow red
        turn: yellow
        money: green=50 yellow=10
        tiles: B1=vega:green3 B2=vega:green2
        prefs: green:layoff=always
        """
    )
    state, events = play(state, "yellow", "gamble B1 5", dice=dice)
    result = of_type(events, "gamble")[0]
    assert (result["boss_paid"], result["bank_paid"]) == (boss_pays, bank_pays)
    assert money(state, "green") == 50 - boss_pays
    assert money(state, "yellow") == 10 + boss_pays + bank_pays


# -- event sentences ---------------------------------------------------------------------------


def test_event_sentences_read_well():
    state = position(
        """
        seats: red yellow blue
        turn: red
        money: red=100
        lots: A1=red A5=red
        tiles: A2=albion:red2 C1=sphinx:red1
        deck: D8
        """
    )
    state, events = play(state, "red", "build A1 albion")
    text = sentences(events)
    assert "Red builds an Albion tile on A1 for $9m; it joins the casino at A2." in text
    state, events = play(state, "red", "build A5 pioneer")
    assert "Red builds a Pioneer tile on A5 for $9m." in sentences(events)
    state, events = play(state, "red", "end")
    text = sentences(events)
    assert "Yellow's parking lot pays $1m." in text
    scored = [s for s in text if "scores" in s]
    assert scored == ["Red scores 1 point for the casino at C1, moving from 0 to 1."]


def test_a_die_moving_off_the_last_tile_leaves_nobody_the_boss():
    _, events = play(position(FULL_BOARD), "red", "build A1 vega moving E1")
    assert "Nobody is the boss of the casino at E1 any more." in sentences(events)


# -- the text board and the list ---------------------------------------------------------------


def test_the_two_player_text_board_shows_the_f_block_out_of_play():
    state = position("seats: black blue\nmoney: black=56\nscore: black=1")
    view = ENGINE.view(state, None)
    text = ENGINE.render_text(view)
    assert "F1 ##" in text and "F9 ##" in text
    assert "$56m" in text and "$ 56m" not in text
    listing = describe_view(view)
    assert "F1" not in listing.split("Empty lots:")[1]
    assert "Black: 1 point, $56m" in listing


def test_the_listing_says_1_point_and_the_height_in_tiles():
    state = position("seats: black blue\ntiles: A2=albion:black2 B1=vega^2:blue3 B2=vega^2:blue1")
    listing = describe_view(ENGINE.view(state, None))
    assert "Albion (purple) casino, 1 point, boss Black: A2 Black 2." in listing
    assert "Vega (green) casino, 2 tiles high, 4 points, on the Strip" in listing


def test_rerolled_dice_are_placed_before_the_tie_reroll():
    """The reorganize action ends when "each player returns their rerolled dice to the
    original tiles"; ties are settled after the action, so an automatic placement comes
    first and the tie reroll hits the die where it was placed."""
    state = position(
        """
        seats: red yellow blue
        turn: red
        money: red=50
        tiles: C1=albion:red1 C4=albion:red1 C7=albion:yellow2 C10=albion:yellow1
        discard: C10
        """
    )
    # Rolled in board order: C1 6, C4 2 (Red); C7 6, C10 4 (Yellow, who puts the 6 on C10,
    # whose card is drawn). The tied 6s on C1 and C10 reroll 5 and 1.
    state, events = play(state, "red", "reorganize C1", dice=[6, 2, 6, 4, 5, 1])
    tiles = state["tiles"]
    assert [tiles[lot][3] for lot in ("C1", "C4", "C7", "C10")] == [5, 2, 4, 1]
    rolls = of_type(events, "tie_reroll")[0]["rolls"]
    assert [(r["lot"], r["value"]) for r in rolls] == [("C1", 5), ("C10", 1)]
