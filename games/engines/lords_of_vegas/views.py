"""What a player may see (everything but the seed and the deck order), and a plain list of
it for screen readers.

There is no hidden information in Lords of Vegas except the order of the deck, so every
seat gets the same view; the casinos are computed once here so that renderers need no
rules.
"""

from __future__ import annotations

from games.engines.base import JSON, State

from .board import COMPANIES, COMPANY_COLOUR, GAME_OVER, LOTS, STRIP, card_pays, in_play
from .casinos import boss, casinos, company, height, points, touches_strip
from .state import OWNER, PIP, dice_on_board, markers_on_board, pref


def view(state: State, seat: int | None) -> JSON:
    players = state["players"]
    slots: dict[str, list[str]] = {name: [] for name in (*COMPANIES, STRIP)}
    for card in state["discard"]:
        slots[card_pays(card)].append(card)
    return {
        "game": "lords-of-vegas",
        "viewer": seat,
        "edition": state["edition"],
        "n": state["n"],
        "turn": state["turn"],
        "over": state["over"],
        "players": [
            {
                "seat": s,
                "colour": state["colours"][s],
                "money": state["money"][s],
                "score": state["score"][s],
                "dice_left": 12 - dice_on_board(state, s),
                "markers_left": 10 - markers_on_board(state, s),
                "prefs": {topic: pref(state, s, topic) for topic in ("place", "layoff")},
            }
            for s in range(players)
        ],
        "markers": dict(sorted(state["markers"].items())),
        "tiles": {
            lot: {"company": t[0], "height": t[1], "owner": t[OWNER], "pip": t[PIP]}
            for lot, t in sorted(state["tiles"].items())
        },
        "casinos": [
            {
                "lots": casino,
                "company": company(state, casino),
                "height": height(state, casino),
                "points": points(state, casino),
                "boss": boss(state, casino),
                "strip": touches_strip(casino),
            }
            for casino in casinos(state)
        ],
        "deck_left": len(state["deck"]),
        "game_over_drawn": GAME_OVER in state["discard"],
        "discards": slots,
        "drawn": state["drawn"],
        "gambles": state["gambles"],
        "reorganized": list(state["reorged"]),
        "pending": [dict(d) for d in state["pending"]],
        "company_colours": dict(COMPANY_COLOUR[state["edition"]]),
    }


WAITING = {
    "move": "which die or lot marker moves",
    "place": "where the rerolled dice go",
    "layoff": "whether to lay off half of the bet",
}


def _who(view: JSON, seat: int | None) -> str:
    return "nobody" if seat is None else str(view["players"][seat]["colour"]).capitalize()


def describe_view(view: JSON) -> str:
    """The view as a plain list, one fact a line, for screen readers."""
    lines = []
    if view["over"]:
        lines.append("- The game is over.")
    else:
        lines.append(f"- It is {_who(view, view['turn'])}'s turn.")
    for player in view["players"]:
        lines.append(
            f"- {player['colour'].capitalize()}: {_points(player['score'])}, "
            f"${player['money']}m, {player['dice_left']} dice and "
            f"{player['markers_left']} lot markers left."
        )
    for lot, owner in view["markers"].items():
        lines.append(f"- Lot {lot}: parking lot of {_who(view, owner)}.")
    colours = view["company_colours"]
    for casino in view["casinos"]:
        tiles = ", ".join(_tile_text(view, lot) for lot in casino["lots"])
        strip = ", on the Strip" if casino["strip"] else ""
        tall = f"{casino['height']} tiles high, " if casino["height"] > 1 else ""
        lines.append(
            f"- {casino['company'].capitalize()} ({colours[casino['company']]}) casino, "
            f"{tall}{_points(casino['points'])}{strip}, "
            f"boss {_who(view, casino['boss'])}: {tiles}."
        )
    players = len(view["players"])
    empty = [
        lot
        for lot in LOTS
        if lot not in view["markers"] and lot not in view["tiles"] and in_play(lot, players)
    ]
    lines.append(f"- Empty lots: {', '.join(empty) or 'none'}.")
    if players == 2:
        lines.append("- The F block is out of play with two players.")
    lines.append(f"- Cards left in the deck: {view['deck_left']}.")
    for name, cards in view["discards"].items():
        lines.append(f"- {name.capitalize()} cards drawn: {len(cards)}.")
    for decision in view["pending"]:
        what = WAITING[decision["kind"]]
        lines.append(f"- Waiting for {_who(view, decision['seat'])} to choose {what}.")
    return "\n".join(lines)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _tile_text(view: JSON, lot: str) -> str:
    tile = view["tiles"][lot]
    if tile["owner"] is None:
        return f"{lot} no die"
    return f"{lot} {_who(view, tile['owner'])} {tile['pip']}"
