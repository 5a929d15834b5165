"""Everything Vegas says to a player is a Text, so the platform can say it in the reader's
language: the log, every refusal, the colours, the edition labels and the text board."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import text as engine_text
from games.engines.base import IllegalCommand, InvalidOptions, MalformedCommand, State
from games.engines.text import Text, install_translator
from games.engines.vegas import ENGINE, Place
from games.engines.vegas.commands import CASINOS
from games.engines.vegas.rules import COLOURS, WHITE
from tests.engines.vegas.helpers import SEED, play_random_game, set_roll, start

EVENT_TYPES = {
    "round_start",
    "deal",
    "white_roll",
    "roll",
    "place",
    "payout",
    "note_taken",
    "notes_returned",
    "game_end",
}
GAMES = [(3, "neutral"), (2, "neutral"), (4, "standard"), (5, "standard")]
NAMES = ["ANA", "BO", "CY", "DEE", "ED"]
"""Player names in capitals: with the shouting translator, a lower-case letter left in a
rendered sentence is English that never went through the translator."""
NOTATION = re.compile(r"'?place \d'?")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
PLACEHOLDER = re.compile(r"(%\([^)]+\)[a-z])")


def _shout(msgid: str) -> str:
    """A fake language: the msgid in capitals (its placeholders untouched), in guillemets."""
    parts = PLACEHOLDER.split(msgid)
    return "«" + "".join(p if PLACEHOLDER.fullmatch(p) else p.upper() for p in parts) + "»"


@pytest.fixture
def shouting() -> Iterator[None]:
    """Install the fake language, and put back whatever translator was there."""
    saved = dict(engine_text._translator)
    install_translator(_shout, lambda one, many, n: _shout(one if n == 1 else many))
    try:
        yield
    finally:
        engine_text._translator.update(saved)  # (all of it: numbers, the fitting too)


def _bare_english(rendered: str) -> list[str]:
    """The lower-case words left once notation and quoted input are taken out."""
    rest = QUOTED.sub("", NOTATION.sub("", rendered))
    return re.findall(r"[a-z]+", rest)


def _events_of(players: int, variant: str) -> Iterator[dict[str, Any]]:
    state, events = ENGINE.new_game(players, {"variant": variant}, SEED)
    yield from events
    while not state["finished"]:
        seat = state["active"]
        state, events = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
        yield from events


def _every_event() -> list[dict[str, Any]]:
    events = [e for game in GAMES for e in _events_of(*game)]
    events.append({"type": "deal", "casino": 2, "notes": []})  # an empty pile, in theory
    events.append({"type": "payout", "casino": 4, "dice": [], "removed": [], "awards": []})
    events.append({"type": "mystery"})
    return events


class TestTheLog:
    def test_every_event_type_is_described_by_a_text(self) -> None:
        events = _every_event()
        assert {e["type"] for e in events} >= EVENT_TYPES
        for event in events:
            assert isinstance(ENGINE.describe(event, NAMES), Text), event

    def test_in_another_language_no_sentence_keeps_english(self, shouting: None) -> None:
        for event in _every_event():
            rendered = str(ENGINE.describe(event, NAMES))
            assert rendered.startswith("«") and not _bare_english(rendered), rendered

    def test_a_placement_reads_in_the_other_language(self, shouting: None) -> None:
        event = {"type": "place", "seat": 2, "number": 1, "own": 2, "white": 1}
        assert str(ENGINE.describe(event, NAMES)) == (
            "«CY PLACES «2 OWN DICE» AND «1 WHITE DIE» ON CASINO 1.»"
        )


class TestTheBoard:
    def test_in_another_language_the_board_keeps_no_english(self, shouting: None) -> None:
        for players, variant in GAMES:
            states, _ = play_random_game(players, variant, SEED)
            for state in [*states[::5], states[-1]]:
                for viewer in (None, 0):
                    board = ENGINE.render_text(ENGINE.view(state, viewer))
                    assert not _bare_english(board), board
                    assert max(map(len, board.splitlines())) <= 80

    def test_the_board_says_the_legend_in_the_other_language(self, shouting: None) -> None:
        state = set_roll(start(4, "neutral"), 2, [1, 2, 2, 6], [4])
        lines = ENGINE.render_text(ENGINE.view(state, 0)).splitlines()
        assert lines[2].split()[0] == "«CASINO»"
        assert "««GREEN» ROLLED 1 2 2 6 + WHITE 4.»" in lines
        assert lines[-1].startswith("«THE PILE HOLDS ")

    def test_colours_and_editions_are_texts(self, shouting: None) -> None:
        for colour in COLOURS:
            name = ENGINE.colour_name(colour)
            assert isinstance(name, Text) and str(name) == "«" + colour.upper() + "»"
        assert str(ENGINE.colour_name(WHITE)) == "«WHITE»"
        for _value, label in ENGINE.editions[1]:
            assert isinstance(label, Text) and not _bare_english(str(label))

    def test_without_a_translator_the_colours_read_in_english(self) -> None:
        assert [str(ENGINE.colour_name(c)) for c in COLOURS] == [
            "Red",
            "Blue",
            "Green",
            "Yellow",
            "Black",
        ]


def _refusals() -> Iterator[IllegalCommand]:
    """Every seat (the system and a seat that does not exist too) placing every number, in
    states of bot games of every size and variant: what the engine refuses."""
    for players, variant in GAMES:
        for bot in ("random", "greedy"):
            states, _ = play_random_game(players, variant, SEED[::-1], bot)
            for state in [*states[::3], states[-1]]:
                for seat in [None, *range(players + 1)]:
                    yield from _refused(state, seat)


def _refused(state: State, seat: int | None) -> Iterator[IllegalCommand]:
    for number in CASINOS:
        try:
            ENGINE.apply(state, seat, Place(number))
        except IllegalCommand as exc:
            yield exc


class TestRefusals:
    def test_every_refusal_of_a_random_exploration_carries_a_text(self, shouting: None) -> None:
        refused = 0
        for exc in _refusals():
            refused += 1
            assert isinstance(exc.text, Text), exc.text
            assert not _bare_english(str(exc)), str(exc)
        assert refused > 1000

    def test_other_refusals_carry_texts(self, shouting: None) -> None:
        state = start(3)
        finished = play_random_game(2, "standard", SEED)[0][-1]
        for call in (
            lambda: ENGINE.apply(state, 0, "place 1"),  # type: ignore[arg-type]
            lambda: ENGINE.default_command(state, 2),
            lambda: ENGINE.default_command(finished, 0),
            lambda: ENGINE.format("place 1"),  # type: ignore[arg-type]
        ):
            with pytest.raises(IllegalCommand) as caught:
                call()
            assert isinstance(caught.value.text, Text)
            assert not _bare_english(str(caught.value)), str(caught.value)

    @pytest.mark.parametrize(
        ("options", "players"),
        [
            ("standard", 3),
            ({"edition": "2024", "speed": 1}, 3),
            ({"variant": "wild"}, 3),
            ({"variant": "neutral"}, 5),
            ({}, 6),
        ],
    )
    def test_bad_options_are_refused_with_a_text(
        self, shouting: None, options: Any, players: int
    ) -> None:
        with pytest.raises(InvalidOptions) as caught:
            ENGINE.normalize_options(options, players)
        assert isinstance(caught.value.text, Text)
        assert not _bare_english(str(caught.value)), str(caught.value)

    def test_an_unknown_verb_names_only_the_vegas_verb(self, shouting: None) -> None:
        with pytest.raises(MalformedCommand) as caught:
            ENGINE.parse("bild 3")
        assert str(caught.value) == "«'bild 3': UNKNOWN COMMAND 'bild'; WRITE E.G. 'place 4'»"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_any_bad_text_is_refused_with_a_text(raw: str) -> None:
    try:
        ENGINE.parse(raw)
    except MalformedCommand as exc:
        assert isinstance(exc.text, Text)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["type", "number", "seat", "x"]),
        st.one_of(st.integers(-2, 9), st.text(max_size=3), st.booleans(), st.none()),
    )
)
def test_any_bad_json_is_refused_with_a_text(data: dict[str, Any]) -> None:
    try:
        ENGINE.command_from_json(data)
    except MalformedCommand as exc:
        assert isinstance(exc.text, Text)
