"""What each seat sees, the plain-text board and the event sentences."""

from __future__ import annotations

import json

from games.engines.vegas import ENGINE
from tests.engines.vegas.helpers import (
    ANNA,
    BENNO,
    NAMES,
    SEED,
    play_random_game,
    put_dice,
    set_roll,
    start,
)


def _mid_round(variant: str = "neutral") -> dict:
    state = start(4, variant)
    put_dice(state, 1, BENNO, 3)
    put_dice(state, 3, ANNA, 2)
    if variant == "neutral":
        put_dice(state, 3, "white", 1)
    state["won"][ANNA] = []
    return set_roll(state, 2, [1, 2, 2, 6], [4] if variant == "neutral" else [])


class TestHiddenInformation:
    def test_no_seed_and_no_pile_order(self) -> None:
        state = start(4)
        for seat in (None, 0, 1):
            text = json.dumps(ENGINE.view(state, seat))
            assert SEED not in text and "seed" not in text
            assert ENGINE.view(state, seat)["pile"] == len(state["pile"])

    def test_a_seat_sees_its_own_money_and_only_the_count_of_the_others_notes(self) -> None:
        states, _ = play_random_game(3, "standard", SEED)
        mid = next(s for s in states if s["round"] == 3)
        for viewer in (None, 0, 1, 2):
            seats = ENGINE.view(mid, viewer)["seats"]
            for row in seats:
                assert row["notes"] == len(mid["won"][row["seat"]])
                own = row["seat"] == viewer
                assert row["money"] == (sum(mid["won"][row["seat"]]) if own else None)

    def test_every_total_is_shown_at_the_end(self) -> None:
        states, _ = play_random_game(3, "standard", SEED)
        end = ENGINE.view(states[-1], None)
        assert [row["money"] for row in end["seats"]] == [sum(w) for w in states[-1]["won"]]
        assert end["standings"][0]["rank"] == 1

    def test_the_view_shows_the_roll_and_the_choices(self) -> None:
        view = ENGINE.view(_mid_round(), BENNO)
        assert view["roll"] == {"seat": 2, "own": [1, 2, 2, 6], "white": [4]}
        assert view["choices"] == [1, 2, 4, 6]
        json.dumps(view)


class TestPlainText:
    def test_the_board_shows_casinos_notes_dice_by_colour_and_the_roll(self) -> None:
        state = _mid_round()
        text = ENGINE.render_text(ENGINE.view(state, ANNA))
        lines = text.splitlines()
        assert all(len(line) <= 80 for line in lines)
        assert lines[0] == "Vegas with neutral dice: round 1 of 4, start player Red."
        assert lines[2].split() == ["Casino", "1", "2", "3", "4", "5", "6"]
        assert any(line.split()[:2] == ["Blue", "3"] for line in lines)
        assert any(line.startswith("White") for line in lines)
        assert "Green rolled 1 2 2 6 + white 4." in lines
        assert "Place one number: 1, 2, 4, 6 (e.g. 'place 1')." in lines
        assert "Red (you): 6 dice + 1 white in hand, 0 notes, $0." in lines
        assert "Blue: 5 dice + 2 white in hand, 0 notes, money hidden." in lines
        for casino in state["casinos"]:
            for note in casino["notes"]:
                assert f"${note:,}" in text

    def test_every_state_of_a_game_fits_80_columns(self) -> None:
        for players, variant in ((5, "standard"), (3, "neutral")):
            states, _ = play_random_game(players, variant, SEED)
            for state in states:
                text = ENGINE.render_text(ENGINE.view(state, 0))
                assert max(map(len, text.splitlines())) <= 80
        assert "the game is over" in ENGINE.render_text(ENGINE.view(states[-1], None))


class TestSentences:
    def test_every_event_of_a_game_is_one_sentence(self) -> None:
        state, events = ENGINE.new_game(3, {"variant": "neutral"}, SEED)
        seen = {e["type"] for e in events}
        sentences = [str(ENGINE.describe(e, NAMES)) for e in events]
        while not state["finished"]:
            seat = state["active"]
            state, new = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
            seen |= {e["type"] for e in new}
            sentences += [str(ENGINE.describe(e, NAMES)) for e in new]
        assert seen >= {"round_start", "deal", "white_roll", "roll", "place", "payout"}
        assert seen >= {"note_taken", "notes_returned", "game_end"}
        for sentence in sentences:
            assert sentence.endswith(".") and "\n" not in sentence
            assert "{" not in sentence, sentence

    def test_some_sentences_word_for_word(self) -> None:
        def describe(event: dict, names: list[str]) -> str:
            return str(ENGINE.describe(event, names))

        assert describe({"type": "round_start", "round": 2, "start_player": 1}, NAMES) == (
            "Round 2 of 4 begins; Benno starts."
        )
        assert describe({"type": "deal", "casino": 5, "notes": [20_000, 40_000]}, NAMES) == (
            "Casino 5 is dealt $20,000 and $40,000."
        )
        assert describe({"type": "roll", "seat": 2, "own": [1, 1, 5], "white": [1, 6]}, NAMES) == (
            "Carla rolls 1 1 5 and white 1 6."
        )
        assert describe({"type": "place", "seat": 2, "number": 1, "own": 2, "white": 1}, NAMES) == (
            "Carla places 2 own dice and 1 white die on casino 1."
        )
        assert describe({"type": "mystery"}, NAMES).startswith("Something happened")
