"""Setting up, taking turns, skipping, passing the start player, and the end of the game."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.base import IllegalCommand, InvalidOptions
from games.engines.rng import ScriptedRng, SeededRng, move_rng, shuffle
from games.engines.vegas import ENGINE, Place
from games.engines.vegas.rules import ALL_NOTES, standings
from tests.engines.vegas.helpers import (
    ANNA,
    BENNO,
    CARLA,
    DENNY,
    SEED,
    clone,
    empty_hand,
    frozen,
    rolls,
    set_roll,
    sound,
    start,
)


class TestOptions:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_it_accepts_2_to_5_players(self, players: int) -> None:
        assert ENGINE.normalize_options({}, players) == {"variant": "standard"}

    @pytest.mark.parametrize("players", [0, 1, 6, "4", True])
    def test_it_refuses_other_player_counts(self, players: object) -> None:
        with pytest.raises(InvalidOptions, match="2 to 5 players"):
            ENGINE.normalize_options({}, players)  # type: ignore[arg-type]

    def test_the_neutral_variant_is_for_2_to_4_players(self) -> None:
        assert ENGINE.normalize_options({"variant": "neutral"}, 4) == {"variant": "neutral"}
        with pytest.raises(InvalidOptions, match="neutral game of Vegas needs 2 to 4"):
            ENGINE.normalize_options({"variant": "neutral"}, 5)

    def test_it_refuses_an_unknown_variant_or_option(self) -> None:
        with pytest.raises(InvalidOptions, match="'wild'"):
            ENGINE.normalize_options({"variant": "wild"}, 3)
        with pytest.raises(InvalidOptions, match="'edition'"):
            ENGINE.normalize_options({"edition": "2024"}, 3)

    def test_seat_colours_leave_white_to_the_neutral_dice(self) -> None:
        assert ENGINE.seat_colours({}, 5) == ["red", "blue", "green", "yellow", "black"]
        assert ENGINE.seat_colours({"variant": "neutral"}, 3) == ["red", "blue", "green"]


class TestSetup:
    @pytest.mark.parametrize("seed", [SEED, "ff" * 32, "00" * 32, "abc"])
    def test_each_casino_is_dealt_up_to_50000_from_the_top_of_the_pile(self, seed: str) -> None:
        state, events = ENGINE.new_game(4, {}, seed)
        shuffled = list(ALL_NOTES)
        shuffle(move_rng(seed, 0), shuffled)
        dealt = [e["notes"] for e in events if e["type"] == "deal"]
        assert [c["notes"] for c in state["casinos"]] == dealt
        assert [n for notes in dealt for n in notes] + state["pile"] == shuffled
        for notes in dealt:
            assert sum(notes) >= 50_000 > sum(notes[:-1])
        sound(state)

    def test_there_are_54_notes_with_the_real_distribution(self) -> None:
        assert len(ALL_NOTES) == 54 and sum(ALL_NOTES) == 2_500_000
        assert Counter(ALL_NOTES) == {
            **dict.fromkeys([60_000, 70_000, 80_000, 90_000], 5),
            **dict.fromkeys([10_000, 40_000, 50_000], 6),
            **dict.fromkeys([20_000, 30_000], 8),
        }

    def test_the_first_player_rolls_8_dice_at_once(self) -> None:
        state, events = ENGINE.new_game(3, {}, SEED)
        assert state["round"] == 1 and state["start"] == ANNA and ENGINE.to_act(state) == [ANNA]
        assert len(state["roll"]["own"]) == 8 and state["roll"]["white"] == []
        assert events[-1] == {"type": "roll", "seat": ANNA, **state["roll"]}

    def test_setup_is_reproducible_from_the_seed(self) -> None:
        assert ENGINE.new_game(4, {}, SEED) == ENGINE.new_game(4, {}, SEED)
        assert ENGINE.new_game(4, {}, SEED)[0] != ENGINE.new_game(4, {}, "1" + SEED[1:])[0]

    @pytest.mark.parametrize(("players", "white"), [(2, 4), (3, 2), (4, 2)])
    def test_the_neutral_variant_hands_out_white_dice(self, players: int, white: int) -> None:
        state = sound(start(players, "neutral"))
        assert state["white"] == [white] * players
        assert len(state["roll"]["white"]) == white

    def test_at_3_players_the_spare_white_dice_are_rolled_for_the_start_player(self) -> None:
        state, events = ENGINE.setup(3, {"variant": "neutral"}, SEED, rng=_shuffle_then(2, 5))
        assert {"type": "white_roll", "seat": ANNA, "dice": [2, 5]} in events
        assert [c["white"] for c in state["casinos"]] == [0, 1, 0, 0, 1, 0]
        sound(state)


def _shuffle_then(*dice: int) -> ScriptedRng:
    """The setup's shuffle from the seed, then the dice a test wants."""
    return ScriptedRng(dice=dice, fallback=SeededRng(SEED, "move 0"))


class TestPlacing:
    def test_benno_places_all_four_3s_and_later_rolls_his_last_die(self) -> None:
        state = start(4)
        for seat in (ANNA, CARLA, DENNY):
            empty_hand(state, seat)
        sound(set_roll(state, BENNO, [3, 3, 3, 3, 5]))
        assert ENGINE.legal_commands(state, BENNO) == [Place(3), Place(5)]
        after, events = ENGINE.apply(state, BENNO, Place(3), rng=rolls(5))
        assert events[0] == {"type": "place", "seat": BENNO, "number": 3, "own": 4, "white": 0}
        assert after["casinos"][2]["dice"][BENNO] == 4 and after["dice"][BENNO] == 1
        # nobody else has dice: Benno plays again, his last die only
        assert ENGINE.to_act(after) == [BENNO] and after["roll"] == {"own": [5], "white": []}
        assert ENGINE.legal_commands(after, BENNO) == [Place(5)]
        sound(after)

    def test_carla_may_choose_any_number_she_rolled_own_or_white(self) -> None:
        state = start(4, "neutral")
        sound(set_roll(state, CARLA, [1, 1, 5], [1, 6]))
        assert ENGINE.legal_commands(state, CARLA) == [Place(1), Place(5), Place(6)]
        ones, _ = ENGINE.apply(state, CARLA, Place(1), rng=rolls(*[4] * 10))
        assert ones["casinos"][0]["dice"][CARLA] == 2 and ones["casinos"][0]["white"] == 1
        assert ones["dice"][CARLA] == 1 and ones["white"][CARLA] == 1
        six, events = ENGINE.apply(state, CARLA, Place(6), rng=rolls(*[4] * 10))
        assert events[0] == {"type": "place", "seat": CARLA, "number": 6, "own": 0, "white": 1}
        assert six["dice"][CARLA] == 3 and six["white"][CARLA] == 1
        sound(ones), sound(six)

    def test_players_without_dice_are_skipped(self) -> None:
        state = start(4)
        empty_hand(state, CARLA)
        empty_hand(state, ANNA)
        set_roll(state, BENNO, [2, 4])
        after, _ = ENGINE.apply(state, BENNO, Place(2), rng=rolls(*[6] * 8))
        assert ENGINE.to_act(after) == [DENNY]
        after, _ = ENGINE.apply(after, DENNY, Place(6), rng=rolls(1))
        assert ENGINE.to_act(after) == [BENNO]  # past Anna and Carla
        sound(after)

    def test_the_start_player_moves_left_each_round(self) -> None:
        state = start(3)
        starts: list[tuple[int, int, int]] = []
        while not state["finished"]:
            if not starts or state["round"] != starts[-1][0]:
                starts.append((state["round"], state["start"], state["active"]))
            seat = state["active"]
            state, _ = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
        assert starts == [(1, 0, 0), (2, 1, 1), (3, 2, 2), (4, 0, 0)]


class TestRefusals:
    def test_it_refuses_a_number_not_rolled(self) -> None:
        state = start(4)
        set_roll(state, ANNA, [1, 1, 5], [])
        before = frozen(state)
        with pytest.raises(IllegalCommand, match="you rolled 1 1 5; there is no 4 to place"):
            ENGINE.apply(state, ANNA, Place(4))
        assert frozen(state) == before

    def test_it_refuses_a_move_out_of_turn(self) -> None:
        state = start(4)
        with pytest.raises(IllegalCommand, match="it is Red's turn, not Blue's"):
            ENGINE.apply(state, BENNO, ENGINE.legal_commands(state, ANNA)[0])
        assert ENGINE.legal_commands(state, BENNO) == []
        with pytest.raises(IllegalCommand, match="it is Red's turn, not seat 9's"):
            ENGINE.apply(state, 9, ENGINE.legal_commands(state, ANNA)[0])

    def test_it_refuses_the_system_seat_and_foreign_commands(self) -> None:
        state = start(4)
        with pytest.raises(IllegalCommand, match="only the player whose turn it is"):
            ENGINE.apply(state, None, ENGINE.legal_commands(state, ANNA)[0])
        with pytest.raises(IllegalCommand, match="not a Vegas command"):
            ENGINE.apply(state, ANNA, "place 1")  # type: ignore[arg-type]

    def test_trades_do_not_exist(self) -> None:
        state = start(4)
        assert ENGINE.trade_parties(state, ANNA, ENGINE.legal_commands(state, ANNA)[0]) is None


class TestTimeouts:
    def test_the_default_places_the_number_with_most_dice(self) -> None:
        state = start(4, "neutral")
        set_roll(state, DENNY, [2, 2, 6], [6, 6])
        assert ENGINE.default_command(state, DENNY) == Place(6)

    def test_a_tie_goes_to_the_higher_number(self) -> None:
        state = start(4)
        set_roll(state, ANNA, [2, 2, 4, 4, 1])
        assert ENGINE.default_command(state, ANNA) == Place(4)

    def test_only_the_active_seat_has_a_default(self) -> None:
        with pytest.raises(IllegalCommand):
            ENGINE.default_command(start(4), BENNO)


def _finished_game() -> dict:
    state = start(2)
    while not state["finished"]:
        seat = state["active"]
        state, _ = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
    return state


class TestTheEnd:
    def test_the_game_ends_after_4_rounds_with_every_die_back(self) -> None:
        state = sound(_finished_game())
        assert state["round"] == 4 and ENGINE.to_act(state) == []
        assert state["dice"] == [8, 8] and all(c["notes"] == [] for c in state["casinos"])
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        best = outcome.placings[0]
        assert best.detail["money"] == max(sum(w) for w in state["won"])
        with pytest.raises(IllegalCommand, match="the game is over"):
            ENGINE.apply(state, 0, Place(1))
        assert ENGINE.legal_commands(state, 0) == []

    def test_the_game_end_event_lists_the_placings(self) -> None:
        state = start(2)
        events: list = []
        while not state["finished"]:
            seat = state["active"]
            state, events = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
        assert events[-1]["type"] == "game_end"
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert events[-1]["placings"] == [p.to_json() for p in outcome.placings]

    def test_the_running_game_has_no_outcome(self) -> None:
        assert ENGINE.outcome(start(3)) is None

    def test_money_wins_then_the_number_of_notes_then_the_win_is_shared(self) -> None:
        state = clone(_finished_game())
        state["won"] = [[90_000, 10_000], [50_000, 50_000], [40_000, 30_000, 30_000]]
        state["players"] = 3  # standings only reads the notes
        assert standings(state) == [(2, 1, 100_000, 3), (0, 2, 100_000, 2), (1, 2, 100_000, 2)]
        state["won"] = [[20_000], [90_000], [10_000, 10_000]]
        assert standings(state) == [(1, 1, 90_000, 1), (2, 2, 20_000, 2), (0, 3, 20_000, 1)]

    def test_shared_victories_share_rank_1(self) -> None:
        state = clone(_finished_game())
        state["won"] = [[50_000, 20_000], [40_000, 30_000]]
        outcome = ENGINE.outcome(state)
        assert outcome is not None and outcome.winners == (0, 1)
        assert [p.rank for p in outcome.placings] == [1, 1]
