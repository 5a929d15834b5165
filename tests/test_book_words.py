"""The rule books' own words: a player who learnt the game from the French or Italian book
reads the same words on the board page, in the log, in the text board of the emails and in
the notation (docs/decisions/0031-the-books-words.md).

The books (../shared/rules/): the classic French and Italian books for Lords of Vegas (an owned
lot is a "lot possédé" / "lotto posseduto", the markers "marqueurs" / "segnalini", the
tiles "bleu, marron, jaune, violet et gris", a reroll "ritirare", the lay-off "dividere il
rischio con la banca"), the French book for Vegas ("quatre rounds", "la pile de billets").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.engines.base import MalformedCommand
from games.engines.lords_of_vegas import ENGINE as LORDS
from games.engines.lords_of_vegas import from_position
from games.engines.lords_of_vegas.commands import LayOff
from games.engines.lords_of_vegas.notation import COMPANY_WORDS, parse
from games.engines.vegas import ENGINE as VEGAS
from tests.web.helpers import page_text

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ann", "Bob", "Cy", "Di")
CLASSIC = """lords-of-vegas classic
seats: blue green red yellow
turn: blue
money: blue=12 green=10 red=10 yellow=10
lots: A5=blue D2=green
tiles: A1=vega:blue3 A2=tivoli:green2
"""


def squeeze(text: str) -> str:
    """Whitespace (French typography's no-break spaces too) as single spaces."""
    return re.sub(r"\s+", " ", text)


def text_board(language: str, position: str = CLASSIC) -> str:
    view = LORDS.view(from_position(position), None)
    with translation.override(language):
        return squeeze(LORDS.render_text(view))


def said(event: dict[str, Any], language: str) -> str:
    with translation.override(language):
        return squeeze(str(LORDS.describe(event, NAMES)))


# -- Lords of Vegas: the notation --------------------------------------------------------------


@pytest.mark.parametrize("text", ["dividi sì", "Dividi si", "dividere sì"])
def test_an_italian_boss_answers_a_lay_off_in_the_books_words(text: str) -> None:
    """The Italian book's lay-off is "dividere il rischio con la banca"; the notation read
    "abandonner" for the French but nothing Italian, so an Italian boss had to write the
    English "layoff"."""
    assert parse(text) == LayOff(True)
    assert parse(text.split()[0] + " no") == LayOff(False)


def test_the_italian_refusal_lists_the_italian_lay_off_verb() -> None:
    """Needs the merged catalogues: the Italian list of verbs ended with the English
    "layoff" (it had no Italian word the notation read)."""
    with translation.override("it"):
        with pytest.raises(MalformedCommand) as refused:
            parse("volare A2", edition="classic")
        said = str(refused.value)  # (said in the reader's language: inside the override)
    assert said.rstrip(")").endswith("scambia, dividi"), said
    assert "layoff" not in said


def test_the_notation_page_lists_every_tile_colour_the_notation_reads() -> None:
    """docs/notation.md listed neither the French book's "jaune", "bleu", "gris" nor the
    Italian "grigio", all of which the notation reads: its table of company words is the
    notation's, word for word."""
    doc = (ROOT / "docs" / "notation.md").read_text()
    table = re.search(r"\| company \| also accepted \|\n\|---\|---\|\n((?:\|.*\|\n)+)", doc)
    assert table is not None
    listed: dict[str, str] = {}
    for row in table.group(1).splitlines():
        company, others = (cell.strip() for cell in row.strip("|").split("|"))
        for word in [company, *re.findall(r"`([^`]+)`", others)]:
            listed[word.strip("`")] = company.strip("`")
    assert listed == COMPANY_WORDS


def test_the_notation_page_shows_the_out_of_play_block_as_the_board_does() -> None:
    """The text board marks the F block of a two-player game ``##``; the page said ``out``."""
    doc = (ROOT / "docs" / "notation.md").read_text()
    board = doc.split("## The board as text (email)", 1)[1].split("## ", 1)[0]
    assert "`##`" in board
    assert "`out`" not in board


# -- Lords of Vegas: the log and the text board (need the merged catalogues) ------------------


def test_the_italian_text_board_counts_lot_markers_not_lots() -> None:
    """The Italian players' rows read "8 lotti rimasti" (8 lots left) for 8 lot markers in
    hand: the Italian book's markers are "segnalini"."""
    text = text_board("it")
    assert "10 segnalini rimasti" in text and "9 segnalini rimasti" in text
    assert "lotti rimasti" not in text


def test_the_french_legend_names_the_tile_colours_of_the_french_book() -> None:
    """The French book's tiles are "bleu, marron, jaune, violet et gris" (gold: "or" in all
    its examples); the legend said "turquoise" and "argent", words the book never uses."""
    text = text_board("fr")
    assert "Ve=Vega (bleu)" in text
    assert "Ti=Tivoli (gris)" in text
    assert "Sp=Sphinx (or)" in text
    assert "turquoise" not in text and "(argent)" not in text


@pytest.mark.parametrize(
    ("language", "owned", "parking"),
    [
        ("fr", "Ann : 3 lots possédés rapportent 3 M$.", "parking"),
        ("it", "I 3 lotti posseduti di Ann fruttano $3M.", "parcheggi"),
    ],
)
def test_owned_lots_pay_in_the_books_words(language: str, owned: str, parking: str) -> None:
    """The classic books pay "les lots possédés" / "i lotti posseduti"; the log said
    "parkings" / "parcheggi", the 2024 English book's word, which neither book has."""
    event = {"type": "parking", "seat": 0, "amount": 3}
    assert said(event, language) == owned
    legend = text_board(language)
    assert parking not in legend
    assert ("lot possédé par Rouge" if language == "fr" else "lotto posseduto da Rosso") in legend


def test_italian_rerolled_dice_are_ritirati_in_every_sentence() -> None:
    """The Italian book rerolls with "ritirare", as the rest of the Italian log does; the
    standing preferences said "rilanciati"."""
    for value in ("auto", "ask"):
        text = said({"type": "preference", "seat": 1, "topic": "place", "value": value}, "it")
        assert "ritirati" in text and "rilanciat" not in text, text


# -- the board page --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "steps"),
    [
        ("fr", ["Chaque lot possédé rapporte 1 M$", "(1 M$ par point de dé)"]),
        (
            "it",
            [
                "Ogni lotto posseduto frutta $1M",
                "($1M per puntino)",
                "Azioni: costruisci, espandi, rimodella, riorganizza, scommetti,",
            ],
        ),
    ],
)
def test_the_turn_steps_say_the_books_words_and_one_money(
    client: Any,
    make_user: Callable[..., Any],
    make_game: Callable[..., Any],
    language: str,
    steps: list[str],
) -> None:
    """Needs the merged catalogues. The Italian steps wrote "$1M" then "1 M$" on two lines
    running and "espanditi" for the book's "espandi"; both languages said "parking" for the
    books' owned lot."""
    ada = make_user("ada", language=language)
    bob = make_user("bob", language=language)
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    client.force_login(ada)
    text = squeeze(page_text(client.get(f"/games/{game.pk}/").content.decode()))
    for step in steps:
        assert step in text
    assert "parking" not in text.lower() and "parcheggi" not in text


# -- Vegas -------------------------------------------------------------------------------------


def test_french_vegas_plays_rounds_and_a_pile_of_notes() -> None:
    """The French Vegas book plays "quatre rounds" and puts notes "sous la pile des
    billets"; the French pages said "manche" and "la pioche" (a deck of cards)."""
    state, events = VEGAS.new_game(3, {"variant": "neutral"}, "rounds")
    view = VEGAS.view(state, 0)
    with translation.override("fr"):
        text = squeeze(VEGAS.render_text(view))
        log = " ".join(str(VEGAS.describe(e, ["Ann", "Bob", "Cy"])) for e in events)
    assert "round 1 sur 4" in text
    assert "La pile contient" in text
    assert "Le round 1 sur 4 débute" in squeeze(log)
    assert "manche" not in (text + log).lower() and "pioche" not in text.lower()
