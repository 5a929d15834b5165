"""The board as plain text for email: at most 80 columns, readable in a fixed-width font.

Each lot is a 10-character cell: its name, then ``$6`` (empty: the price), ``[R]`` (Red's
parking lot), ``Sp2R5`` (a Sphinx tile two high with Red's 5; ``--`` for no die) or ``out``
(the F block in a two-player game).
"""

from __future__ import annotations

from games.engines.base import JSON

from .board import LOTS, in_play

INITIAL = {"black": "K", "blue": "B", "green": "G", "purple": "P", "red": "R", "yellow": "Y"}
SHORT = {"albion": "Al", "sphinx": "Sp", "vega": "Ve", "tivoli": "Ti", "pioneer": "Pi"}
ROWS, COLS, STRIP_COL = 10, 7, 3
CELL = 10
WAITING = {
    "move": "which die or lot marker moves",
    "place": "where the rerolled dice go",
    "layoff": "whether to lay off half of the bet",
}


def _initial(view: JSON, seat: int) -> str:
    return INITIAL[view["players"][seat]["colour"]]


def _cell(view: JSON, lot: str) -> str:
    tile = view["tiles"].get(lot)
    if tile is not None:
        die = "--" if tile["owner"] is None else f"{_initial(view, tile['owner'])}{tile['pip']}"
        body = f"{SHORT[tile['company']]}{tile['height']}{die}"
    elif lot in view["markers"]:
        body = f"[{_initial(view, view['markers'][lot])}]"
    elif not in_play(lot, len(view["players"])):
        body = "out"
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
    colours = view["company_colours"]
    lines = [f"Lords of Vegas ({view['edition']} edition)", " " * 27 + "The Strip"]
    lines += board_lines(view)
    lines.append("")
    names = [f"{SHORT[c]}={c.capitalize()} ({colours[c]})" for c in SHORT]
    lines.append("Tiles: " + "  ".join(names[:3]))
    lines.append("       " + "  ".join(names[3:]))
    lines.append("$9 = empty lot and its price; [R] = Red's parking lot; || = the Strip")
    lines.append("Sp2R5 = Sphinx tile, 2 high, Red's die showing 5 (-- = no die)")
    if len(view["players"]) == 2:
        lines.append("out = the F block, out of play with two players")
    lines.append("")
    for player in view["players"]:
        turn = " <- turn" if player["seat"] == view["turn"] and not view["over"] else ""
        cash = f"${player['money']}m"
        lines.append(
            f"{INITIAL[player['colour']]} {player['colour']:<7} {player['score']:>3} pts"
            f"  {cash:>6}  dice left {player['dice_left']:>2}"
            f"  lots left {player['markers_left']:>2}{turn}"
        )
    lines.append("")
    for casino in view["casinos"]:
        boss = "none" if casino["boss"] is None else _initial(view, casino["boss"])
        strip = " Strip" if casino["strip"] else ""
        lines.append(
            f"{casino['company'].capitalize():<8} {casino['points']:>2} pts boss {boss:<4}"
            f" {' '.join(casino['lots'])}{strip}"[:80]
        )
    drawn = "  ".join(f"{name} {len(cards)}" for name, cards in view["discards"].items())
    lines.append(f"Deck: {view['deck_left']} cards.  Drawn: {drawn}")
    if view["over"]:
        lines.append("The game is over.")
    for decision in view["pending"]:
        who = view["players"][decision["seat"]]["colour"].capitalize()
        lines.append(f"Waiting for {who}: {WAITING[decision['kind']]}")
    return "\n".join(line[:80] for line in lines)
