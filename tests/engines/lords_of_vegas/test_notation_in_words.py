"""``format_in``: a command as a French or Italian player writes it, read back the same."""

from __future__ import annotations

import pytest

from games.engines.lords_of_vegas.notation import format_in, parse
from games.engines.vegas.engine import VegasEngine

TEXTS = [
    "build F5 albion",
    "sprawl B5 from B2 moving D5",
    "remodel D5 tivoli",
    "reorganize D5",
    "raise D5",
    "gamble B2 10",
    "end",
    "move die D5",
    "move lot C3",
    "place D1=6 D5=4",
    "layoff yes",
    "layoff no",
    "prefer layoff ask",
    "prefer place auto",
    "trade red pays yellow 6, yellow gives die D6 to red",
    "trade red gives lot C3 to blue moving D5, do build C4 sphinx",
]


@pytest.mark.parametrize("language", ["fr", "it", "en", "de"])
@pytest.mark.parametrize("text", TEXTS)
def test_a_command_in_a_players_words_reads_back_the_same(text: str, language: str) -> None:
    command = parse(text)
    assert parse(format_in(command, language)) == command


def test_the_french_words_are_the_books() -> None:
    assert format_in(parse("sprawl B5 from B2"), "fr") == "étendre B5 de B2"
    assert format_in(parse("layoff no"), "fr") == "abandonner non"
    assert format_in(parse("end"), "it") == "fine"
    assert format_in(parse("end"), "en") == "end"


def test_vegas_places_in_the_players_words() -> None:
    engine = VegasEngine()
    command = engine.parse("place 4")
    assert engine.format_in(command, "fr") == "placer 4"
    assert engine.parse(engine.format_in(command, "it")) == command


def test_a_mistyped_verb_is_named_with_the_closest_of_the_editions() -> None:
    from games.engines.base import MalformedCommand

    with pytest.raises(MalformedCommand) as refusal:
        parse("construir C4 violet", edition="classic")
    assert "unknown command 'construir'; did you mean 'construire'?" in str(refusal.value)
    assert "raise" not in str(refusal.value)
    with pytest.raises(MalformedCommand) as refusal:
        parse("surelver C4", edition="classic")  # (raise: not a classic verb)
    assert "did you mean" not in str(refusal.value)
