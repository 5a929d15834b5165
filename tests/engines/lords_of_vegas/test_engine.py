"""The protocol's other questions: setup, legal commands, views, rendering, positions."""

from __future__ import annotations

import json

import pytest

from games.engines.base import IllegalCommand, InvalidOptions, MalformedCommand
from games.engines.lords_of_vegas import (
    ENGINE,
    Build,
    End,
    Gamble,
    PositionError,
    describe_view,
    from_position,
    to_position,
)
from games.engines.lords_of_vegas.board import CARDS, GAME_OVER
from games.engines.registry import get_engine

from .helpers import of_type, play, position, said, seat


def test_the_registry_finds_the_engine():
    engine = get_engine("lords-of-vegas")
    assert engine is ENGINE and engine.name == "Lords of Vegas"
    assert set(engine.bots) == {"random", "greedy"}


@pytest.mark.parametrize(("edition", "players"), [("2024", 2), ("2024", 6), ("classic", 4)])
def test_a_new_game_is_set_up_by_the_books(edition, players):
    state, events = ENGINE.new_game(players, {"edition": edition}, "5e" * 32)
    again, _ = ENGINE.new_game(players, {"edition": edition}, "5e" * 32)
    assert state == again  # the seed decides everything
    assert ENGINE.check_invariants(state) == []
    assert len(of_type(events, "deal")) == players
    assert all(len(state["discard"]) >= 2 for _ in [0])
    assert len(state["deck"]) + len(state["discard"]) + (state["drawn"] is not None) == len(CARDS)
    assert state["deck"][-1] != GAME_OVER
    assert of_type(events, "first_player")[0]["seat"] == state["turn"]
    assert of_type(events, "card")[0]["seat"] == state["turn"]  # turn one's steps 1-5 ran
    assert ENGINE.to_act(state) == [state["turn"]]
    assert state["n"] == 0 and len(json.dumps(state)) < 16_000


def test_legal_commands_offer_every_company_and_every_bet():
    state = position(
        """
        seats: red yellow
        turn: red
        money: red=12 yellow=20
        lots: A2=red
        tiles: B1=vega:yellow3
        """
    )
    legal = ENGINE.legal_commands(state, 0)
    assert {c.company for c in legal if isinstance(c, Build)} == {
        "albion",
        "sphinx",
        "vega",
        "tivoli",
        "pioneer",
    }
    assert [c.amount for c in legal if isinstance(c, Gamble)] == [1, 2, 3, 4, 5]
    assert legal[-1] == End()
    assert ENGINE.legal_commands(state, 1) == []
    for command in legal:
        ENGINE.apply(state, 0, command)  # every legal command is accepted


def test_sprawl_with_twelve_dice_names_the_moving_die():
    lots = ["C1", "C4", "C7", "C10", "E1", "E4", "E2", "E5", "A1", "A4", "B3", "B6"]
    tiles = " ".join(f"{lot}={'tivoli' if i < 6 else 'pioneer'}:red2" for i, lot in enumerate(lots))
    state = position(f"seats: red yellow\nturn: red\nmoney: red=90\ntiles: {tiles} A2=albion:red6")
    state["tiles"].pop("B6")
    with pytest.raises(IllegalCommand, match="add 'moving <lot>'"):
        ENGINE.apply(state, 0, ENGINE.parse("sprawl A3 from A2"))
    state, _ = play(state, "red", "sprawl A3 from A2 moving B3")
    assert state["tiles"]["A3"] == ["albion", 1, 0, 5] and state["tiles"]["B3"][2] is None
    assert state["money"][0] == 90 - 30


def test_a_lot_trade_to_a_player_with_ten_markers_needs_moving():
    lots = " ".join(f"D{i}=yellow" for i in range(1, 10)) + " E1=yellow A2=red"
    state = position(f"seats: red yellow\nturn: red\nlots: {lots}")
    state, events = play(state, None, "trade red gives lot A2 to yellow")
    assert "add 'moving <lot>'" in said(of_type(events, "trade_stopped")[0])
    state, events = play(state, None, "trade red gives lot A2 to yellow moving E1")
    assert state["markers"]["A2"] == 1 and "E1" not in state["markers"]


def test_commands_from_other_engines_are_refused():
    state = position("seats: red yellow")
    with pytest.raises(MalformedCommand):
        ENGINE.apply(state, 0, object())  # type: ignore[arg-type]


def test_the_view_hides_the_seed_and_the_deck_order():
    state, _ = ENGINE.new_game(3, {}, "77" * 32)
    view = ENGINE.view(state, 1)
    text = json.dumps(view)
    assert "77" * 32 not in text and "deck" not in view
    assert view["deck_left"] == len(state["deck"])
    assert sum(len(cards) for cards in view["discards"].values()) == len(state["discard"])


def test_the_text_board_fits_80_columns_and_the_list_reads_plainly():
    state = position(
        """
        seats: black blue green purple red yellow
        turn: red
        money: red=12
        lots: A2=red
        tiles: C10=sphinx^6:yellow6 C11=sphinx^6:black5 B1=vega:-
        """
    )
    view = ENGINE.view(state, None)
    text = ENGINE.render_text(view)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "C10 Sp6Y6" in text and "A2 [R]" in text and "B1 Ve1--" in text
    listing = describe_view(view)
    assert "- It is Red's turn." in listing
    assert "- Lot A2: parking lot of Red." in listing
    assert "boss Yellow: C10 Yellow 6, C11 Black 5." in listing


def test_every_event_becomes_a_sentence():
    state = position(
        """
        seats: green red yellow
        turn: green
        money: green=20
        tiles: C1=sphinx:green4 C4=sphinx:green5 C2=pioneer:red5 C5=pioneer:red2
        """
    )
    state, events = play(state, "green", "remodel C1 brown", dice=[3, 3])
    names = ["Ann", "Bob", "Cy"]
    sentences = [str(ENGINE.describe(e, names)) for e in events]
    assert "Ann remodels the casino at C1 from Sphinx to Pioneer for $10m." in sentences
    assert any(s.startswith("Tied bosses in the casino at C1") for s in sentences)
    assert sentences[-1].startswith("Ann is now the boss of the casino at C1")


def test_positions_round_trip_and_report_bad_lines():
    state, _ = ENGINE.new_game(4, {"edition": "classic"}, "42" * 32)
    assert from_position(to_position(state)) == state
    with pytest.raises(PositionError, match="needs a 'seats:' line"):
        from_position("turn: red")
    with pytest.raises(PositionError, match="'pink' is not one of the seats"):
        from_position("seats: red yellow\nturn: pink")
    with pytest.raises(PositionError, match="is not a company"):
        from_position("seats: red yellow\ntiles: A1=steel:red3")


def test_trade_parties_name_every_seat_that_must_agree():
    state = position("seats: black blue green red\nturn: black")
    trade = ENGINE.parse("trade green pays red 2")
    assert ENGINE.trade_parties(state, seat(state, "blue"), trade) == frozenset({1, 2, 3})
    with pytest.raises(IllegalCommand, match="no Yellow player"):
        ENGINE.trade_parties(state, 0, ENGINE.parse("trade yellow pays red 2"))


def test_it_refuses_unknown_options_rather_than_ignoring_them():
    with pytest.raises(InvalidOptions, match="unknown option 'editon'"):
        ENGINE.normalize_options({"editon": "classic"}, 4)
    with pytest.raises(InvalidOptions, match="colours must be a list"):
        ENGINE.normalize_options({"colours": "red"}, 2)
