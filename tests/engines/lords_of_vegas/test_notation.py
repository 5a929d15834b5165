"""The text notation and the JSON form: every command form, aliases, errors, round trips."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engines.base import MalformedCommand
from games.engines.lords_of_vegas import (
    ENGINE,
    Build,
    Do,
    End,
    Gamble,
    GiveDie,
    GiveLot,
    LayOff,
    Move,
    Pay,
    Place,
    Prefer,
    Raise,
    Remodel,
    Reorganize,
    Sprawl,
    Trade,
)
from games.engines.lords_of_vegas.board import ALL_COLOURS, COMPANIES, LOT_NAMES
from games.engines.lords_of_vegas.commands import ACTIONS

FORMS = {
    "build A2 sphinx": Build("A2", "sphinx"),
    "BUILD a2 Gold": Build("A2", "sphinx"),
    "build A2 sphinx moving C3": Build("A2", "sphinx", "C3"),
    "sprawl A5 from A2": Sprawl("A5", "A2"),
    "sprawl from A2 to A5": Sprawl("A5", "A2"),
    "sprawl A5 from A2 moving B1": Sprawl("A5", "A2", "B1"),
    "remodel A2 vega": Remodel("A2", "vega"),
    "remodel A2 aqua": Remodel("A2", "vega"),
    "remodel A2 to brown": Remodel("A2", "pioneer"),
    "reorganize C3": Reorganize("C3"),
    "reorg c3": Reorganize("C3"),
    "raise C3": Raise("C3"),
    "gamble B4 5": Gamble("B4", 5),
    "gamble B4 $5m": Gamble("B4", 5),
    "end": End(),
    "end turn": End(),
    "move die C3": Move("die", "C3"),
    "move lot D2": Move("lot", "D2"),
    "place C3=5 C6=2": Place((("C3", 5), ("C6", 2))),
    "place C3 5, C6 2": Place((("C3", 5), ("C6", 2))),
    "layoff yes": LayOff(True),
    "lay off no": LayOff(False),
    "prefer place ask": Prefer("place", "ask"),
    "prefer layoff never": Prefer("layoff", "never"),
    # French and Italian verbs of the books
    "construire A2 or": Build("A2", "sphinx"),
    "costruisci A2 oro": Build("A2", "sphinx"),
    "étendre A5 de A2": Sprawl("A5", "A2"),
    "espandi A5 da A2": Sprawl("A5", "A2"),
    "réaménager A2 marron": Remodel("A2", "pioneer"),
    "rimodella A2 argento": Remodel("A2", "tivoli"),
    # the classic French book's colours of the tiles: bleu, marron, jaune, violet, gris
    "construire E2 gris": Build("E2", "tivoli"),
    "préférer placer demander": Prefer("place", "ask"),
    "préférer abandonner toujours": Prefer("layoff", "always"),
    "preferisci piazza chiedi": Prefer("place", "ask"),
    "preferisci dividere mai": Prefer("layoff", "never"),
    "construire E2 bleu": Build("E2", "vega"),
    "construire E2 jaune": Build("E2", "sphinx"),
    "réorganiser C3": Reorganize("C3"),
    "riorganizza C3": Reorganize("C3"),
    "parier B4 5": Gamble("B4", 5),
    "scommetti B4 5": Gamble("B4", 5),
    "fin": End(),
    "fine": End(),
    "élever C3": Raise("C3"),
    "s'étendre A5 de A2": Sprawl("A5", "A2"),
    "fin du tour": End(),
    "déplacer dé C3": Move("die", "C3"),
    "sposta dado C3": Move("die", "C3"),
    "move marker D2": Move("lot", "D2"),
    "abandonner oui": LayOff(True),
    "piazza C3=5 C6=2": Place((("C3", 5), ("C6", 2))),
}


@pytest.mark.parametrize(("text", "command"), FORMS.items())
def test_it_parses(text, command):
    assert ENGINE.parse(text) == command


def test_the_trade_form():
    text = (
        "trade green pays black 7, black gives lot D2 to green, "
        "blue gives die B4 to black moving C3, do remodel B4 vega"
    )
    trade = ENGINE.parse(text)
    assert trade == Trade(
        (
            Pay("green", "black", 7),
            GiveLot("black", "green", "D2"),
            GiveDie("blue", "black", "B4", "C3"),
            Do(Remodel("B4", "vega")),
        )
    )
    assert ENGINE.format(trade) == text
    assert ENGINE.parse("trade green gives $7m to black") == Trade((Pay("green", "black", 7),))
    assert ENGINE.parse("échanger green pays black 7") == Trade((Pay("green", "black", 7),))


@pytest.mark.parametrize(
    "text",
    [
        "échanger vert paie noir 7, noir donne lot D2 à vert, bleu donne dé B4 à noir",
        "scambia verde paga nero 7, nero dà lotto D2 a verde, blu dà dado B4 a nero",
    ],
)
def test_a_trade_in_french_or_italian_words(text):
    """The pages and emails name the players by their colour in the reader's language
    ("Vert (Dee)"): a trade written with those words is the same trade (found by
    play-testing: "'vert' is not a player colour (black, blue, ...)")."""
    assert ENGINE.parse(text) == Trade(
        (
            Pay("green", "black", 7),
            GiveLot("black", "green", "D2"),
            GiveDie("blue", "black", "B4"),
        )
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty line"),
        ("fly A2", "unknown command 'fly'"),
        ("build Z9 sphinx", "'z9' is not a lot"),
        ("build A2 orange", "'orange' is not a company"),
        ("build A2", "expected 'build <lot> <company>'"),
        ("build A2 gold moving", "moving <lot>"),
        ("gamble B4 0", "not an amount"),
        ("sprawl A5 A2", "expected 'sprawl <lot> from"),
        ("place C3=7", "not a die value"),
        ("layoff maybe", "layoff yes"),
        ("trade", "at least one step"),
        ("trade pink pays black 3", "'pink' is not a player colour"),
        ("trade green sells black 3", "not a trade step"),
        ("trade do end", "only actions"),
        ("end now", "takes nothing"),
    ],
)
def test_malformed_text_names_the_input_and_the_reason(text, reason):
    with pytest.raises(MalformedCommand, match=reason):
        ENGINE.parse(text)


def test_malformed_json():
    for data in (
        {},
        {"type": "build", "lot": "A2"},
        {"type": "gamble", "lot": "A2", "amount": "5"},
    ):
        with pytest.raises(MalformedCommand):
            ENGINE.command_from_json(data)


# -- round trips ---------------------------------------------------------------------------------

lots = st.sampled_from(LOT_NAMES)
companies = st.sampled_from(COMPANIES)
colours = st.sampled_from(ALL_COLOURS)
moving = st.none() | lots
amounts = st.integers(min_value=1, max_value=200)
actions = st.one_of(
    st.builds(Build, lots, companies, moving),
    st.builds(Sprawl, lots, lots, moving),
    st.builds(Remodel, lots, companies),
    st.builds(Reorganize, lots),
    st.builds(Raise, lots),
    st.builds(Gamble, lots, amounts),
)
steps = st.one_of(
    st.builds(Pay, colours, colours, amounts),
    st.builds(GiveLot, colours, colours, lots, moving),
    st.builds(GiveDie, colours, colours, lots, moving),
    st.builds(Do, actions),
)
commands = st.one_of(
    actions,
    st.just(End()),
    st.builds(Move, st.sampled_from(["die", "lot"]), lots),
    st.builds(
        Place,
        st.lists(st.tuples(lots, st.integers(1, 6)), min_size=1, max_size=5).map(tuple),
    ),
    st.builds(LayOff, st.booleans()),
    st.sampled_from([Prefer(t, v) for t, vs in (("place", ("auto", "ask")),
                                                ("layoff", ("never", "always", "ask")))
                     for v in vs]),
    st.builds(Trade, st.lists(steps, min_size=1, max_size=6).map(tuple)),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(commands)
def test_parse_and_format_round_trip(command):
    text = ENGINE.format(command)
    assert ENGINE.parse(text) == command
    assert ENGINE.parse(text.upper()) == command
    assert ENGINE.command_from_json(command.to_json()) == command


def _objects(data):
    """The command's JSON objects that have a type: the command, its steps, their actions."""
    found = [data]
    for step in data.get("steps", []):
        found.extend(_objects(step))
    if "action" in data:
        found.extend(_objects(data["action"]))
    return found


KINDS = {
    cls.kind: {"type", *(f.name for f in fields(cls))}
    for cls in (*ACTIONS, End, Move, Place, LayOff, Prefer, Trade, Pay, GiveLot, GiveDie, Do)
}
json_values = st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(lots)


@settings(max_examples=300, deadline=None)
@given(commands, st.data(), st.text(min_size=1, max_size=8), json_values)
def test_a_field_a_command_does_not_take_is_refused(command, data, name, value):
    """A typo (``"colour"`` for a build, ``"dice"`` for an end) was ignored and the rest
    played (found by fuzzing); it is refused wherever it is: in the command, a trade's
    step, a step's action."""
    sent = command.to_json()
    target = data.draw(st.sampled_from(_objects(sent)))
    assume(name not in KINDS[target["type"]])
    target[name] = value
    with pytest.raises(MalformedCommand, match="unexpected field") as refused:
        ENGINE.command_from_json(sent)
    assert repr(name) in str(refused.value)


def test_an_unexpected_field_is_named():
    build = {"type": "build", "lot": "B5", "company": "albion", "colour": "green", "amount": 9}
    with pytest.raises(MalformedCommand, match=r"unexpected fields 'amount', 'colour'"):
        ENGINE.command_from_json(build)
    with pytest.raises(MalformedCommand, match=r"unexpected field 'dice'"):
        ENGINE.command_from_json({"type": "end", "dice": 2})
