"""The text notation (``place 4``, ``4``, ``placer 4``, ``piazza 4``) and the JSON form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines.base import MalformedCommand
from games.engines.vegas import ENGINE, Place


@pytest.mark.parametrize(
    "text", ["place 4", "4", "placer 4", "piazza 4", "PLACE 4", "  Placer   4 ", "put 4", "\t4\n"]
)
def test_it_reads_every_spelling_of_place_4(text: str) -> None:
    assert ENGINE.parse(text) == Place(4)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("place 7", "there is no casino 7"),
        ("place 0", "there is no casino 0"),
        ("build 4", "unknown command 'build'"),
        ("place four", "'four' is not a casino"),
        ("place", "'place' is not a casino"),
        ("", "write the number you place"),
        ("place 4 5", "write the number you place"),
        ("place -1", "'-1' is not a casino"),
    ],
)
def test_it_says_what_is_wrong_with_bad_text(text: str, reason: str) -> None:
    with pytest.raises(MalformedCommand, match=reason):
        ENGINE.parse(text)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"type": "build", "number": 4}, "only Vegas command is type 'place'"),
        ({"type": "place"}, "'number' .* is missing"),
        ({"type": "place", "number": 9}, "there is no casino 9"),
        ({"type": "place", "number": True}, "must be a number"),
        ({"type": "place", "number": 4, "dice": 2}, "unexpected field"),
    ],
)
def test_it_says_what_is_wrong_with_bad_json(data: dict, reason: str) -> None:
    with pytest.raises(MalformedCommand, match=reason):
        ENGINE.command_from_json(data)


@pytest.mark.parametrize("number", ["3", " 3", "03", ""])
def test_the_json_form_refuses_a_number_as_text(number: str) -> None:
    """In JSON a number is a JSON integer (docs/api.md); digits are the text door's."""
    with pytest.raises(MalformedCommand, match="'number' is a JSON integer"):
        ENGINE.command_from_json({"type": "place", "number": number})
    assert ENGINE.parse(f"place {number.strip() or 3}") == Place(int(number.strip() or 3))


@given(st.integers(1, 6))
def test_format_parse_and_json_round_trip(number: int) -> None:
    command = Place(number)
    assert ENGINE.format(command) == f"place {number}" == str(command)
    assert ENGINE.parse(ENGINE.format(command)) == command
    assert ENGINE.command_from_json(command.to_json()) == command


@given(
    st.integers(1, 6),
    st.sampled_from(["", "place ", "placer ", "piazza ", "put "]),
    st.booleans(),
    st.text(" \t", max_size=3),
)
def test_any_case_and_spacing_parses(number: int, verb: str, upper: bool, pad: str) -> None:
    text = pad + (verb.upper() if upper else verb) + str(number) + pad
    assert ENGINE.format(ENGINE.parse(text)) == f"place {number}"


@given(st.text(max_size=12))
def test_arbitrary_text_parses_or_raises_malformed(text: str) -> None:
    try:
        command = ENGINE.parse(text)
    except MalformedCommand:
        return
    assert ENGINE.parse(ENGINE.format(command)) == command
