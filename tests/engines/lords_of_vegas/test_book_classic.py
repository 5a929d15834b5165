"""The worked examples of the classic (Mayfair) rule book, and what differs from 2024."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalCommand, InvalidOptions, MalformedCommand
from games.engines.lords_of_vegas import ENGINE
from games.engines.lords_of_vegas.board import advance

from .helpers import money, of_type, play, position, said, score, seat


def test_the_classic_track_breaks():
    # "If you are paid 2 or 3 points, your chip advances to the 10-space.
    #  If you are paid 4 or 5 points, your chip advances to the 12-space."
    assert advance(8, 1) == 8
    assert [advance(8, points) for points in (2, 3, 4, 5)] == [10, 10, 12, 12]


def test_the_classic_track_break_while_scoring():
    state = position(
        """
        lords-of-vegas classic
        seats: blue green red yellow
        turn: blue
        score: yellow=8 red=8
        tiles: C1=vega:yellow4 C4=vega:yellow2 C7=vega:yellow2 C10=vega:yellow1
        tiles: D1=vega:red5 D4=vega:red3
        deck: A3
        """
    )
    state, events = play(state, "blue", "end")
    assert score(state, "yellow") == 12 and score(state, "red") == 10
    assert [e["points"] for e in of_type(events, "scored")] == [2, 4]


CLASSIC_GAMBLE = """
lords-of-vegas classic
seats: blue green red yellow
turn: yellow
money: red=20 yellow=20
tiles: E1=pioneer:red5 E2=pioneer:red2 E3=pioneer:red1
"""


def test_yellow_bets_4_at_reds_three_tile_casino_and_rolls_3():
    state = position(CLASSIC_GAMBLE)
    with pytest.raises(IllegalCommand, match=r"at most \$15m"):
        ENGINE.apply(state, seat(state, "yellow"), ENGINE.parse("gamble E1 16"))
    state, events = play(state, "yellow", "gamble E1 4", dice=[1, 2])
    assert money(state, "yellow") == 24 and money(state, "red") == 16
    assert of_type(events, "gamble")[0]["lay_off"] is False


def test_the_boss_who_asks_decides_the_lay_off():
    state = position(CLASSIC_GAMBLE)
    state, _ = play(state, "red", "prefer layoff ask")
    state, events = play(state, "yellow", "gamble E1 5")
    assert ENGINE.to_act(state) == [seat(state, "red")]
    assert of_type(events, "waiting")[0]["decision"] == "layoff"
    with pytest.raises(IllegalCommand, match="waiting for Red"):
        ENGINE.apply(state, seat(state, "yellow"), ENGINE.parse("end"))
    assert ENGINE.default_command(state, seat(state, "red")) == ENGINE.parse("layoff no")
    won, _ = play(state, "red", "layoff yes", dice=[1, 2])
    # The boss pays half the bet rounded down ($2m); the bank pays the rest ($3m).
    assert money(won, "yellow") == 25 and money(won, "red") == 18
    lost, _ = play(state, "red", "lay off yes", dice=[3, 4])
    # The boss receives half rounded down ($2m); the bank gets the rest.
    assert money(lost, "yellow") == 15 and money(lost, "red") == 22
    doubled, _ = play(state, "red", "layoff yes", dice=[6, 6])
    # Doubled: $10m owed, the boss pays half of it ($5m), the bank the rest.
    assert money(doubled, "yellow") == 30 and money(doubled, "red") == 15


def test_a_standing_lay_off_preference_answers_at_once():
    state = position(CLASSIC_GAMBLE)
    state, _ = play(state, "red", "prefer layoff always")
    state, _events = play(state, "yellow", "gamble E1 4", dice=[1, 2])
    assert ENGINE.to_act(state) == [seat(state, "yellow")]
    assert money(state, "red") == 18 and money(state, "yellow") == 24


def test_the_2024_edition_has_no_lay_off():
    state = position(CLASSIC_GAMBLE.replace("lords-of-vegas classic", "lords-of-vegas 2024"))
    state, _ = play(state, "red", "prefer layoff always")
    state, _events = play(state, "yellow", "gamble E1 4", dice=[1, 2])
    assert money(state, "red") == 16


def test_the_classic_edition_has_no_raise_and_no_risers():
    state = position(
        CLASSIC_GAMBLE.replace("turn: yellow", "turn: red").replace("red=20", "red=90")
    )
    with pytest.raises(IllegalCommand, match="classic edition has no raise"):
        ENGINE.apply(state, seat(state, "red"), ENGINE.parse("raise E1"))


def test_classic_player_counts_and_colours():
    assert ENGINE.seat_colours({"edition": "classic"}, 4) == ["blue", "green", "red", "yellow"]
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"edition": "classic"}, 5)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"edition": "classic", "colours": ["black", "blue"]}, 2)
    assert ENGINE.seat_colours({}, 6) == ["black", "blue", "green", "purple", "red", "yellow"]
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({}, 7)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"edition": "1999"}, 3)


def test_the_classic_remodel_merge_and_reorganize():
    state = position(
        """
        lords-of-vegas classic
        seats: red yellow
        turn: red
        money: red=30
        tiles: A2=sphinx:red2 A5=sphinx:red3 A3=pioneer:yellow5
        """
    )
    state, _ = play(state, "red", "remodel A2 brown")
    assert money(state, "red") == 20
    state, _ = play(state, "red", "reorganize A2", dice=[5, 4, 1])
    assert money(state, "red") == 10
    assert ENGINE.view(state, None)["casinos"][0]["boss"] == seat(state, "red")


def test_a_bet_waiting_for_the_lay_off_is_on_the_table():
    state = position(CLASSIC_GAMBLE)
    state, _ = play(state, "red", "prefer layoff ask")
    text = "trade do gamble E1 15, yellow pays blue 10, do end"
    with pytest.raises(MalformedCommand, match="only actions"):
        ENGINE.parse(text)
    state, events = play(state, None, "trade do gamble E1 15, yellow pays blue 5")
    assert money(state, "yellow") == 5  # the $15m bet is on the table
    assert "lay-off decision" in said(of_type(events, "trade_stopped")[0])
    state, _ = play(state, "red", "layoff no", dice=[3, 4])
    assert money(state, "yellow") == 5 and money(state, "red") == 35
