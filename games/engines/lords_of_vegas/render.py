"""The board as plain text for email: at most 80 columns, readable in a fixed-width font.
A line that says more (French and Italian take more letters than English, counts grow) is
wrapped at spaces, its continuation indented, never cut: a cut loses what ends the line.

Each lot is a 10-character cell: its name, then ``$6`` (empty: the price), ``[R]`` (Red's
parking lot), ``Sp2R5`` (a Sphinx tile two high with Red's 5; ``--`` for no die; ``SpR5``
in the classic edition, which has no risers) or ``##`` (the F block in a two-player game).
"""

from __future__ import annotations

import textwrap

from games.engines.base import JSON
from games.engines.text import Join, Text, _, ngettext

from .board import LOTS, in_play
from .views import describe_decision
from .words import company, company_with_colour, money, player

INITIAL = {"black": "K", "blue": "B", "green": "G", "purple": "P", "red": "R", "yellow": "Y"}
SHORT = {"albion": "Al", "sphinx": "Sp", "vega": "Ve", "tivoli": "Ti", "pioneer": "Pi"}
ROWS, COLS, STRIP_COL = 10, 7, 3
CELL = 10
WIDTH = 80
INDENT = 4
"""The indent of a wrapped line's continuation, unless the line says a better one."""
OUT = "##"
"""A lot out of play (the F block at two players): a sign, not a word, so that it fits its
cell with a space after it in every language (a translated "out" did not: the French board
read "F1 hors jeF2 hors je"); the legend says what it means."""
TOGETHER = "\x1f"
"""Joins words a wrap must not part ("Albion 12"); a space once wrapped."""


def _initial(view: JSON, seat: int) -> str:
    return INITIAL[view["players"][seat]["colour"]]


def _cell(view: JSON, lot: str) -> str:
    tile = view["tiles"].get(lot)
    if tile is not None:
        die = "--" if tile["owner"] is None else f"{_initial(view, tile['owner'])}{tile['pip']}"
        height = "" if view["edition"] == "classic" else tile["height"]  # (no risers)
        body = f"{SHORT[tile['company']]}{height}{die}"
    elif lot in view["markers"]:
        body = f"[{_initial(view, view['markers'][lot])}]"
    elif not in_play(lot, len(view["players"])):
        body = OUT
    else:
        body = f"${LOTS[lot].price}"
    return f"{lot} {body}".ljust(CELL)


def board_lines(view: JSON) -> list[str]:
    grid = {(lot.grid_row, lot.grid_col): name for name, lot in LOTS.items()}
    lines = []
    for row in range(ROWS):
        cells = []
        for col in range(COLS):
            if col == STRIP_COL:
                cells.append(" || ")
            elif (row, col) in grid:
                cells.append(_cell(view, grid[(row, col)]))
            else:
                cells.append(" " * CELL)
        lines.append("".join(cells).rstrip())
    return lines


def render_text(view: JSON) -> str:
    """The board, its legend, the players, the casinos, the deck and what the game waits
    for, in the language active now (every word is a Text rendered here)."""
    lines = [str(_title(view["edition"])), " " * 27 + str(_("The Strip"))]
    lines += board_lines(view)
    lines.append("")
    lines += _legend(view)
    lines.append("")
    lines += _players(view)
    lines.append("")
    for casino in view["casinos"]:
        lines += _casino_lines(view, casino)
    lines += _deck_lines(view)
    if view["over"]:
        lines.append(str(_("The game is over.")))
    for decision in view["pending"]:
        # (the reader's own decision with what it is about: the email's board is what a
        # player answers a lay-off from)
        own = decision["seat"] == view.get("viewer")
        said = describe_decision(view, decision["seat"]) if own else None
        who = player(view["players"][decision["seat"]]["colour"])
        lines.append(str(said or WAITING[decision["kind"]](who)))
    return "\n".join(part for line in lines for part in _wrap(line))


def _wrap(line: str, indent: int = INDENT) -> list[str]:
    """The line in lines of at most :data:`WIDTH` columns, broken at spaces (a no-break
    space, as French writes before a colon, holds), continued ``indent`` columns in."""
    if len(line) <= WIDTH:
        return [line.replace(TOGETHER, " ")]
    parts = textwrap.wrap(
        line,
        WIDTH,
        subsequent_indent=" " * min(indent, WIDTH // 2),
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [part.replace(TOGETHER, " ") for part in parts]


def _title(edition: str) -> Text:
    if edition == "classic":
        return _("Lords of Vegas (classic edition)")
    return _("Lords of Vegas (2024 edition)")


def _legend(view: JSON) -> list[str]:
    names = [f"{SHORT[name]}={company_with_colour(view['edition'], name)}" for name in SHORT]
    first = str(_("Tiles: %(tiles)s", tiles=Join(names[:3], "  ")))
    indent = " " * max(0, first.find(names[0]))
    lines = [first, indent + "  ".join(names[3:])]
    lines.append(str(_("$9 = empty lot and its price; [R] = Red's parking lot; || = the Strip")))
    if view["edition"] == "classic":  # (no risers: every tile is one high)
        lines.append(str(_("SpR5 = Sphinx tile, Red's die showing 5 (-- = no die)")))
    else:
        lines.append(str(_("Sp2R5 = Sphinx tile, 2 high, Red's die showing 5 (-- = no die)")))
    if len(view["players"]) == 2:
        lines.append(str(_("## = the F block, out of play with two players")))
    return lines


def _players(view: JSON) -> list[str]:
    """One row a player: initial, colour, points, money, dice and lot markers left."""
    names = [str(player(p["colour"])) for p in view["players"]]
    width = max(len(name) for name in names)
    rows = []
    for p, name in zip(view["players"], names, strict=True):
        score = ngettext("%(count)s pt", "%(count)s pts", p["score"], count=p["score"])
        dice = ngettext(
            "%(count)s die left", "%(count)s dice left", p["dice_left"], count=p["dice_left"]
        )
        lots = ngettext(  # (lot markers: "markers" in the book, as in French and Italian)
            "%(count)s marker left",
            "%(count)s markers left",
            p["markers_left"],
            count=p["markers_left"],
        )
        cells = [
            f"{INITIAL[p['colour']]} {name:<{width}}",
            f"{score!s:>7}",
            f"{money(p['money'])!s:>6}",
            f"{dice!s:>13}",
            f"{lots!s:>13}",
        ]
        if p["seat"] == view["turn"] and not view["over"]:
            cells.append(str(_("<- turn")))
        rows.append("  ".join(cells))
    return rows


def _casino_lines(view: JSON, casino: JSON) -> list[str]:
    """Its company, points and boss, then its lots (continued under the first lot)."""
    boss = (
        _("boss none")
        if casino["boss"] is None
        else _("boss %(player)s", player=_initial(view, casino["boss"]))
    )
    points = ngettext("%(count)s pt", "%(count)s pts", casino["points"], count=casino["points"])
    cells = [f"{company(casino['company']):<8}", f"{points!s:>6}", f"{boss!s:<9}"]
    head = " ".join(cells) + " "
    lots = list(casino["lots"])
    if casino["strip"]:
        lots.append(str(_("Strip")))
    return _wrap(head + " ".join(lots), indent=len(head))


def _deck_lines(view: JSON) -> list[str]:
    """The deck's count, then each pile's (a pile's name and count kept together; the
    piles continued under the first)."""
    piles = [f"{_pile(name)}{TOGETHER}{len(cards)}" for name, cards in view["discards"].items()]
    left = view["deck_left"]
    deck = ngettext("Deck: %(count)s card.", "Deck: %(count)s cards.", left, count=left)
    drawn = _("Drawn: %(piles)s", piles=Join(piles, "  "))
    line = f"{deck}  {drawn}"
    first = line.find(piles[0]) if piles else -1
    return _wrap(line, indent=first if first > 0 else INDENT)


def _pile(name: str) -> Text | str:
    """A discard pile: a company (a proper name) or the Strip."""
    return _("Strip") if name == "strip" else company(name)


WAITING = {
    "move": lambda who: _("Waiting for %(player)s: which die or lot marker moves", player=who),
    "place": lambda who: _("Waiting for %(player)s: where the rerolled dice go", player=who),
    "layoff": lambda who: _(
        "Waiting for %(player)s: whether to lay off half of the bet", player=who
    ),
}
"""What a decision the game waits for is about (the player named by colour)."""
