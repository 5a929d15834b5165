"""Everything Lords of Vegas says to a player is a Text, so that the platform can say it in
the reader's language: the log, every refusal, colours, edition labels, the text board and
the screen-reader list."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from games.engines import text as engine_text
from games.engines.base import IllegalCommand, InvalidOptions, MalformedCommand
from games.engines.lords_of_vegas import ENGINE, describe_lot, describe_view, from_position
from games.engines.lords_of_vegas.board import LOTS
from games.engines.lords_of_vegas.events import EVENT_TYPES
from games.engines.rng import SeededRng
from games.engines.text import Text, install_translator

from .helpers import play, position, said

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]

SAMPLES: list[dict[str, Any]] = [
    {"type": "deal", "seat": 0, "cards": ["A1", "B2"], "money": 18},
    {"type": "set_aside", "card": "F3"},
    {"type": "shuffled_back", "cards": ["F3"]},
    {"type": "shuffled_back", "cards": ["F3", "F5"]},
    {"type": "first_roll", "seat": 1, "dice": [3, 4]},
    {"type": "first_roll", "seat": 1, "dice": [5], "tie": True},
    {"type": "first_player", "seat": 1},
    {"type": "turn", "seat": 1},
    {"type": "card", "seat": 1, "card": "C3", "pays": "sphinx"},
    {"type": "card", "seat": 1, "card": "B1", "pays": "strip"},
    {"type": "card", "seat": 1, "card": "GO", "pays": "strip"},
    {"type": "out_of_play", "card": "F2"},
    {"type": "already_yours", "seat": 0, "lot": "A2"},
    {"type": "lot", "seat": 0, "lot": "A2"},
    {"type": "take_over", "seat": 0, "lot": "A2", "value": 5, "from": 1},
    {"type": "take_over", "seat": 0, "lot": "A2", "value": 5, "from": None},
    {"type": "waiting", "seat": 0, "decision": "move die", "lot": "A2"},
    {"type": "waiting", "seat": 0, "decision": "move lot", "lot": "A2"},
    {"type": "waiting", "seat": 0, "decision": "place", "lots": ["A2", "A3"]},
    {"type": "waiting", "seat": 0, "decision": "layoff", "lot": "A2"},
    {"type": "parking", "seat": 2, "amount": 1},
    {"type": "parking", "seat": 2, "amount": 3},
    {"type": "paid", "seat": 2, "amount": 7, "casino": ["C1", "C2"]},
    {"type": "scored", "seat": 2, "casino": ["C1"], "points": 1, "from": 8, "to": 8},
    {"type": "scored", "seat": 2, "casino": ["C1", "C2"], "points": 2, "from": 0, "to": 2},
    {
        "type": "game_end",
        "reason": "card",
        "placings": [
            {"seat": 1, "rank": 1, "points": 20, "money": 30},
            {"seat": 0, "rank": 2, "points": 1, "money": 3},
        ],
    },
    {
        "type": "game_end",
        "reason": "track",
        "placings": [{"seat": 0, "rank": 1, "points": 90, "money": 0}],
    },
    {"type": "merge", "casino": ["A1", "A2"], "company": "vega", "height": 1},
    {"type": "tie_reroll", "casino": ["C1", "C2"], "rolls": [{"lot": "C1", "seat": 0, "value": 4}]},
    {"type": "boss", "casino": ["C1"], "seat": 3},
    {"type": "boss", "casino": ["C1", "C2"], "seat": None},
    {"type": "build", "seat": 0, "lot": "A1", "company": "albion", "cost": 9, "joins": []},
    {"type": "build", "seat": 0, "lot": "A1", "company": "vega", "cost": 9, "joins": ["A2"]},
    {
        "type": "build",
        "seat": 0,
        "lot": "A4",
        "company": "albion",
        "cost": 9,
        "joins": ["A1", "A5"],
    },
    {"type": "sprawl", "seat": 0, "lot": "A3", "origin": "A2", "company": "tivoli", "cost": 30},
    {
        "type": "remodel",
        "seat": 0,
        "casino": ["A2"],
        "from": "tivoli",
        "company": "pioneer",
        "cost": 5,
    },
    {
        "type": "reorganize",
        "seat": 0,
        "casino": ["C1", "C2"],
        "cost": 6,
        "rolls": [{"lot": "C1", "seat": 0, "value": 2}, {"lot": "C2", "seat": 1, "value": 6}],
    },
    {"type": "raise", "seat": 0, "casino": ["B1", "B2"], "height": 2, "cost": 30},
    {"type": "die_moved", "seat": 0, "from": "E1", "to": "A1"},
    {"type": "marker_moved", "seat": 0, "from": "E1", "to": "A1"},
    {"type": "placed", "seat": 0, "values": {"C1": 6, "C4": 2}, "auto": True},
    {"type": "bet", "seat": 0, "boss": 1, "lot": "D4", "amount": 5},
    *[
        {
            "type": "gamble",
            "seat": 0,
            "boss": 1,
            "lot": "D4",
            "amount": 5,
            "dice": dice,
            "total": sum(dice),
            "won": won,
            "boss_paid": boss_paid,
            "bank_paid": bank_paid,
            "lay_off": bank_paid != 0,
        }
        for dice, won, boss_paid, bank_paid in [
            ([1, 2], 5, 5, 0),
            ([1, 1], 10, 5, 5),
            ([3, 3], -5, -5, 0),
            ([3, 3], -5, -2, -3),
        ]
    ],
    *[
        {"type": "preference", "seat": 0, "topic": topic, "value": value}
        for topic, value in [
            ("layoff", "ask"),
            ("layoff", "never"),
            ("layoff", "always"),
            ("place", "auto"),
            ("place", "ask"),
        ]
    ],
    {"type": "trade", "seats": [0, 1, 2]},
    {
        "type": "trade_stopped",
        "step": 2,
        "reason": {
            "msgid": "%(player)s cannot pay themselves",
            "params": {"player": {"msgid": "Red"}},
        },
    },
    {"type": "trade_stopped", "step": 1, "reason": "an older event kept its reason in English"},
    {"type": "trade_done", "steps": 1},
    {"type": "trade_done", "steps": 3},
    {"type": "trade_pay", "seat": 0, "to": 1, "amount": 7},
    {"type": "trade_lot", "seat": 0, "to": 1, "lot": "A2", "moving": None},
    {"type": "trade_die", "seat": 0, "to": 1, "lot": "A2", "value": 4, "moving": None},
    {"type": "turn_end", "seat": 0},
]
"""At least one event of every type the engine logs, every branch of its sentence."""

GAMES = [("2024", 2), ("2024", 5), ("classic", 3), ("classic", 4)]
SEED = "5a" * 32

PROBES = [
    "build A2 sphinx",
    "build C5 vega moving C1",
    "sprawl A5 from A2",
    "remodel C1 tivoli",
    "reorganize B4",
    "raise C3",
    "gamble D4 3",
    "gamble D4 300",
    "end",
    "move die C3",
    "move lot C3",
    "place C3=2 C6=5",
    "layoff yes",
    "prefer layoff ask",
    "trade black pays blue 500",
    "trade yellow gives lot A1 to blue",
    "trade green gives die C1 to red moving A2",
    "trade do build A1 vega",
]
JUNK = ["", "fly A2", "build Z9 gold", "build A2 orange", "gamble B4 0", "place C3=7", "trade"]
BAD_OPTIONS: list[tuple[dict[str, Any], int]] = [
    ({"editon": "classic"}, 3),
    ({"edition": "1999"}, 3),
    ({"edition": "classic"}, 6),
    ({"colours": "red"}, 2),
    ({"colours": ["red", "red"]}, 2),
    ({"edition": "classic", "colours": ["black", "red"]}, 2),
]
JUNK_JSON: list[Any] = [[], {}, {"type": "build", "lot": "A2"}, {"type": "gamble", "lot": 3}]


def _refusals(state: dict[str, Any], rng: SeededRng) -> Iterator[IllegalCommand]:
    """Every refusal of a few probes and of the legal commands sent by the wrong seat."""
    for seat in range(state["players"]):
        commands = [ENGINE.parse(PROBES[rng.randbelow(len(PROBES))]) for __ in range(3)]
        others = [s for s in range(state["players"]) if s != seat]
        commands += ENGINE.legal_commands(state, others[rng.randbelow(len(others))])[:5]
        for command in commands:
            try:
                ENGINE.apply(state, seat, command)
            except IllegalCommand as refusal:
                yield refusal


def _explore(edition: str, players: int) -> Iterator[tuple[dict[str, Any], IllegalCommand | None]]:
    """A bot game with every event it logs and every refusal the probes meet on the way."""
    state, events = ENGINE.new_game(players, {"edition": edition}, SEED)
    rng = SeededRng(SEED, f"text {edition} {players}")
    for seat in range(players):
        state, more = ENGINE.apply(state, seat, ENGINE.parse("prefer place ask"))
        events += more
    while ENGINE.outcome(state) is None:
        for event in events:
            yield event, None
        if rng.randbelow(4) == 0:
            for refusal in _refusals(state, rng):
                yield {}, refusal
        seat = ENGINE.to_act(state)[0]
        state, events = ENGINE.apply(state, seat, ENGINE.bots["random"](state, seat, rng))
    for event in events:
        yield event, None


def _is_text_all_the_way(message: object) -> bool:
    """A refusal's Text, and the reason it names, are Texts (not English glued in)."""
    if not isinstance(message, Text):
        return False
    reason = message.params.get("reason") if message.msgid == "%(command)s: %(reason)s" else None
    return reason is None or _is_text_all_the_way(reason)


def test_every_event_type_has_a_sample():
    assert {e["type"] for e in SAMPLES} == EVENT_TYPES


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e["type"])
def test_every_event_is_described_by_a_text(event):
    sentence = ENGINE.describe(event, NAMES)
    assert isinstance(sentence, Text)
    rendered = str(sentence)
    assert "%(" not in rendered and rendered.endswith(".")


@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_bot_games_log_only_texts_and_refuse_only_with_texts(edition, players):
    refused = 0
    for event, refusal in _explore(edition, players):
        if refusal is None:
            assert event["type"] in EVENT_TYPES, event
            assert isinstance(ENGINE.describe(event, NAMES), Text), event
            json.dumps(event)  # what the platform stores
        else:
            refused += 1
            assert _is_text_all_the_way(refusal.text), refusal.text
            assert "%(" not in str(refusal)
    assert refused > 20


def test_malformed_input_and_bad_options_are_refused_with_texts():
    for line in JUNK:
        with pytest.raises(MalformedCommand) as refusal:
            ENGINE.parse(line)
        assert _is_text_all_the_way(refusal.value.text), line
    for data in JUNK_JSON:
        with pytest.raises(MalformedCommand) as refusal:
            ENGINE.command_from_json(data)
        assert isinstance(refusal.value.text, Text), data
    for options, players in BAD_OPTIONS:
        with pytest.raises(InvalidOptions) as bad:
            ENGINE.normalize_options(options, players)
        assert isinstance(bad.value.text, Text), options


def test_the_unknown_command_refusal_lists_only_this_games_verbs():
    with pytest.raises(MalformedCommand) as refusal:
        ENGINE.parse("fly A2 gold")
    assert str(refusal.value) == (
        "'fly A2 gold': unknown command 'fly' (commands: build, sprawl, remodel, reorganize, "
        "raise, gamble, end, move, place, prefer, trade, layoff)"
    )


def test_colours_and_edition_labels_are_texts():
    for colour in (*ENGINE.seat_colours({}, 6), "gold", "aqua", "silver", "brown"):
        assert isinstance(ENGINE.colour_name(colour), Text)
        assert str(ENGINE.colour_name(colour)) == colour
    assert all(isinstance(label, Text) for __, label in ENGINE.editions[1])


def test_a_stopped_trade_keeps_its_reason_to_say_in_the_readers_language():
    state = position("seats: red yellow\nturn: red\nmoney: red=3")
    __, events = play(state, None, "trade red pays yellow 5")
    stopped = next(e for e in events if e["type"] == "trade_stopped")
    assert json.loads(json.dumps(stopped)) == stopped
    assert said(stopped) == (
        "The trade stops at step 1: Red has only $3m and cannot pay $5m; "
        "the later steps do not happen."
    )


def test_each_lot_is_described_for_a_screen_reader():
    view = ENGINE.view(from_position(BOARD), None)
    labels = {lot: str(describe_lot(view, lot)) for lot in ("A1", "A2", "A3", "B2", "C1", "F1")}
    assert labels == {
        "A1": "Lot A1: Albion casino tile, 1 high, Black's die showing 2, casino 1",
        "A2": "Lot A2: parking lot of Black",
        "A3": "Lot A3, on the Strip: empty, price $15m, die 5",
        "B2": "Lot B2: Vega casino tile, 2 high, Blue's die showing 1, casino 2",
        "C1": "Lot C1: Sphinx casino tile, 1 high, no die, casino 3",
        "F1": "Lot F1, on the Strip: out of play",
    }


# -- in another language --------------------------------------------------------------------

PLACEHOLDER = re.compile(r"(%\([a-z_]+\)s)")


def _disguise(msgid: str) -> str:
    """A fake language: every letter of the msgid becomes "~", its placeholders kept. A letter
    left in a rendered text came from a parameter, or never went through the translator."""
    parts = PLACEHOLDER.split(msgid)
    return "".join(p if PLACEHOLDER.fullmatch(p) else re.sub("[A-Za-z]", "~", p) for p in parts)


@pytest.fixture
def disguised() -> Iterator[None]:
    """Install the fake language, and put back whatever translator was there."""
    saved = dict(engine_text._translator)
    install_translator(_disguise, lambda one, many, n: _disguise(one if n == 1 else many))
    try:
        yield
    finally:
        engine_text._translator.update(saved)  # (all of it: numbers, the fitting too)


PARAMETERS = re.compile(
    r"Ann|Bob|Cy|Di|Ed|Albion|Sphinx|Vega|Tivoli|Pioneer|layoff"  # names, notation
    r"|[A-F]\d{1,2}"  # lots
    r"|(Al|Sp|Ve|Ti|Pi)(\d([KBGPRY]\d|--)?)?|[KBGPRY]"  # cells of the text board
)


def _words_left(rendered: str) -> list[str]:
    """Words that are neither a parameter nor notation: English that skipped translation."""
    return [
        w for w in re.findall(r"[A-Za-z][A-Za-z0-9-]*", rendered) if not PARAMETERS.fullmatch(w)
    ]


def test_in_another_language_no_english_is_left_in_the_log(disguised):
    for event in SAMPLES:
        if isinstance(event.get("reason"), str):
            continue  # an older event kept its reason in English
        assert _words_left(str(ENGINE.describe(event, NAMES))) == [], event


BOARD = """
seats: black blue
turn: black
money: black=56 blue=5
score: black=1
lots: A2=black
tiles: A1=albion:black2 B1=vega^2:blue3 B2=vega^2:blue1 C1=sphinx:-
pending: layoff:blue:B1:5:black
"""


@pytest.mark.parametrize("over", [False, True])
def test_in_another_language_no_english_is_left_on_the_board(disguised, over):
    state = from_position(BOARD + ("over: card\n" if over else ""))
    view = ENGINE.view(state, None)
    assert _words_left(ENGINE.render_text(view)) == []
    assert _words_left(describe_view(view)) == []
    for lot in ("A1", "A2", "A3", "C1", "F1"):
        assert _words_left(str(describe_lot(view, lot))) == [], lot
    state = from_position(BOARD.replace("seats: black blue", "seats: black blue red"))
    view = ENGINE.view(state, None)
    assert _words_left(ENGINE.render_text(view)) == []


def test_in_another_language_a_refusal_is_translated_but_the_command_is_not(disguised):
    state = position("seats: red yellow\nturn: red\nlots: A2=yellow")
    with pytest.raises(IllegalCommand) as refusal:
        ENGINE.apply(state, 0, ENGINE.parse("build A2 sphinx"))
    message = str(refusal.value)
    assert message.startswith("'build A2 sphinx': A2 ~~ ~~~~~ ~~ ~~~~~~: ")
    assert _words_left(message.removeprefix("'build A2 sphinx'")) == []
    assert ENGINE.parse("construire A2 or") == ENGINE.parse("build A2 sphinx")


# Found by QA: the text board cut its lines at 80 columns, so French and Italian lost the
# end of the deck line (the Strip's count); a long casino would have lost lots.
CROWDED = (
    "seats: black blue red\nturn: black\n"
    "discard: " + " ".join(lot for lot in LOTS if lot[0] != "F") + "\n"
    "tiles: " + " ".join(f"{lot}=albion:black2" for lot in LOTS if lot[0] == "C") + "\n"
)  # every pile past 9 cards, and the biggest casino (the C block's 12 lots)


def _folded(text: str) -> str:
    """The board's lines put back together (a continuation's indent as one space)."""
    return re.sub(r"\n +", " ", text)


def _cells(text: str) -> list[str]:
    return re.findall(r"[A-F]\d\b|Strip \d+|[A-Z][a-z]+ \d+", text)


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_text_board_wraps_its_long_lines_and_loses_nothing(language):
    from django.utils import translation

    view = ENGINE.view(from_position(CROWDED), None)
    with translation.override("en"):
        english = _folded(ENGINE.render_text(view))
    with translation.override(language):
        text = ENGINE.render_text(view)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    for pile, count in view["discards"].items():
        name = "Strip" if pile == "strip" else pile.capitalize()
        assert f"{name} {len(count)}" in _folded(text), (pile, text)
    casino = next(c for c in view["casinos"] if len(c["lots"]) == 12)
    assert " ".join(casino["lots"]) in _folded(text)
    assert [c for c in _cells(english) if re.fullmatch(r"[A-F]\d", c)] == [
        c for c in _cells(_folded(text)) if re.fullmatch(r"[A-F]\d", c)
    ]


def test_a_wrapped_line_breaks_between_piles_and_indents_its_continuation():
    """In English too, once every pile holds 10 cards or more (the deck line was 80 wide)."""
    view = ENGINE.view(from_position(CROWDED), None)
    view["discards"] = {pile: ["A1"] * 10 for pile in view["discards"]}
    lines = ENGINE.render_text(view).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Deck:"))
    deck = lines[at : at + 2]
    assert deck[1].startswith(" ") and deck[1].strip().startswith(("Strip", "Pioneer", "Tivoli"))
    assert not re.search(r"(Albion|Sphinx|Vega|Tivoli|Pioneer|Strip)$", deck[0])


@pytest.mark.parametrize(
    ("language", "legend"),
    [
        ("en", "## = the F block, out of play with two players"),
        ("fr", "## = le bloc F, hors jeu à deux joueurs"),
        ("it", "## = il blocco F, fuori gioco con due giocatori"),
    ],
)
def test_the_out_of_play_block_is_marked_in_its_cells_and_said_in_the_legend(language, legend):
    """The French board read "F1 hors jeF2 hors jeF3 hors je" (the word cut to its cell,
    no gap) and the legend explained "out", a word the board never showed: every cell of
    the F block says ``##`` with a space after it, and the legend says what ``##`` is."""
    from django.utils import translation

    state, _events = ENGINE.new_game(2, {"edition": "2024"}, "out-of-play")
    with translation.override(language):
        text = ENGINE.render_text(ENGINE.view(state, None))
    f_lots = [lot for lot in LOTS if lot[0] == "F"]
    assert f_lots and all(re.search(rf"\b{lot} ##( |$)", text, re.M) for lot in f_lots), text
    assert legend in text.splitlines()
    assert set(re.findall(r"\bF\d (\S+)", text)) == {"##"}  # not "hors je", "fuori g"
