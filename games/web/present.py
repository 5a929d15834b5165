"""Presentation for the web pages: turn the selectors' dicts (the engine's view for the
viewer's seat, the log, the seats) into what the templates draw. No rules here and nothing
read from the full state: only from what the viewer may already see."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import tzinfo
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts.models import zone_named
from games.engines.lords_of_vegas import describe_lot, describe_view
from games.engines.lords_of_vegas.board import LOTS, in_play
from games.engines.registry import get_engine

BUTTONS_OPEN = 12
"""A group of legal commands up to this size is shown open; bigger ones start folded."""

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


# -- small things --------------------------------------------------------------------------


def viewer_zone(user: Any) -> tzinfo:
    """The viewer's time zone (UTC for someone not signed in)."""
    return zone_named(getattr(user, "time_zone", None))


def game_name(game_type: str) -> str:
    try:
        return get_engine(game_type).name
    except LookupError:
        return game_type


ABOUT = {
    "lords-of-vegas": _lazy(
        "Build casinos on the Strip, roll to be the boss, gamble and sprawl: 2 to 6 players."
    ),
    "vegas": _lazy("Roll dice, place them on six casinos, win the biggest notes: 2 to 5 players."),
}


def about(game_type: str) -> str:
    """One line on what the game is (the create page's choice of game)."""
    return str(ABOUT.get(game_type, ""))


def edition(game_type: str, options: dict[str, Any] | None) -> str:
    """ "2024", "classic", "neutral"... (the engine names its edition option), or ""."""
    try:
        key = get_engine(game_type).editions[0]
    except LookupError:
        return ""
    return str((options or {}).get(key, ""))


def title(game: dict[str, Any]) -> str:
    return f"{game_name(game['game_type'])} #{game['id']}"


def money(value: int | None) -> str:
    return _("hidden") if value is None else f"${value:,}"


# -- seats ---------------------------------------------------------------------------------


def seats(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats with what the view shows of each (money, score, dice in hand...)."""
    view = game["view"] or {}
    shown = view.get("players") if isinstance(view.get("players"), list) else view.get("seats")
    per_seat = {entry["seat"]: entry for entry in shown or []}
    rows = []
    for seat in game["seats"]:
        figures = _figures(per_seat.get(seat["order"], {}))
        rows.append({**seat, "you": seat["order"] == game["your_seat"], **figures})
    return rows


def _figures(shown: dict[str, Any]) -> dict[str, Any]:
    if "score" in shown:  # Lords of Vegas: money in millions, points on the track
        return {
            "money": f"${shown['money']}m",
            "score": shown["score"],
            "detail": _("%(dice)s dice, %(markers)s lot markers left")
            % {"dice": shown["dice_left"], "markers": shown["markers_left"]},
        }
    if "notes" in shown:  # Vegas: money hidden but to its owner, until the end
        if shown.get("white"):
            detail = _("%(dice)s dice + %(white)s white in hand, %(notes)s notes")
        else:
            detail = _("%(dice)s dice in hand, %(notes)s notes")
        return {
            "money": money(shown["money"]),
            "score": None,
            "detail": detail
            % {"dice": shown["dice"], "white": shown.get("white"), "notes": shown["notes"]},
        }
    return {"money": None, "score": None, "detail": ""}


def placings(game: dict[str, Any]) -> list[dict[str, Any]]:
    outcome = game.get("outcome") or {}
    names = {s["order"]: s for s in game["seats"]}
    rows = []
    for placing in outcome.get("placings", []):
        seat = names.get(placing.get("seat"), {})
        extra = {k: v for k, v in placing.items() if k not in ("seat", "rank")}
        detail = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in extra.items())
        rows.append({"rank": placing.get("rank"), **seat, "detail": detail})
    return rows


# -- the log -------------------------------------------------------------------------------


def log(moves: Sequence[dict[str, Any]], game: dict[str, Any]) -> list[dict[str, Any]]:
    """Newest first: who, what they typed, what happened (the engine's sentences)."""
    names = {s["order"]: s["name"] for s in game["seats"]}
    return [
        {
            "seq": m["seq"],
            "who": _("setup") if m["seq"] == 0 else names.get(m["seat"], _("the game")),
            "source": m["source"],
            "text": m["text"],
            "sentences": [s for s in m["described"] if s],
            "at": m["created_at"],
        }
        for m in reversed(moves)
    ]


# -- the legal commands --------------------------------------------------------------------


def command_groups(legal: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal commands grouped by verb, then by their first argument (``build B4`` ->
    one row with a button per company), so that a hundred choices stay readable."""
    groups: dict[str, dict[str, list[dict[str, str]]]] = {}
    for entry in legal:
        text = str(entry["text"])
        verb, _, rest = text.partition(" ")
        first, _, tail = rest.partition(" ")
        row = groups.setdefault(verb, {}).setdefault(first if tail else "", [])
        row.append({"text": text, "label": tail or first or verb})
    return [
        {
            "verb": verb,
            "count": sum(map(len, rows.values())),
            "open": sum(map(len, rows.values())) <= BUTTONS_OPEN,
            "rows": [{"head": head, "buttons": buttons} for head, buttons in rows.items()],
        }
        for verb, rows in groups.items()
    ]


# -- Lords of Vegas ------------------------------------------------------------------------


def lords_board(view: dict[str, Any]) -> dict[str, Any]:
    """The 48 lots at their grid positions (the board data), each with what is on it, the
    casinos numbered, and the engine's plain list for screen readers."""
    colours = {p["seat"]: p["colour"] for p in view["players"]}
    casino_of = {lot: i for i, c in enumerate(view["casinos"], 1) for lot in c["lots"]}
    lots = [_lot(name, view, colours, casino_of.get(name), len(view["players"])) for name in LOTS]
    casinos = [
        {
            "number": i,
            "company": c["company"],
            "colour": view["company_colours"][c["company"]],
            "lots": c["lots"],
            "height": c["height"],
            "points": c["points"],
            "boss": None if c["boss"] is None else colours[c["boss"]],
            "strip": c["strip"],
        }
        for i, c in enumerate(view["casinos"], 1)
    ]
    return {
        "lots": lots,
        "casinos": casinos,
        "company_colours": view["company_colours"],
        "deck_left": view["deck_left"],
        "discards": {k: len(v) for k, v in view["discards"].items()},
        "pending": view["pending"],
        "described": [line.removeprefix("- ") for line in describe_view(view).splitlines()],
    }


def _lot(
    name: str,
    view: dict[str, Any],
    colours: dict[int, str],
    casino: int | None,
    players: int,
) -> dict[str, Any]:
    lot = LOTS[name]
    cell: dict[str, Any] = {
        "name": name,
        "row": lot.grid_row + 1,
        "col": lot.grid_col + 1,
        "price": lot.price,
        "die": lot.die,
        "face": DIE_FACES[lot.die],
        "strip": lot.strip,
        "casino": casino,
        "kind": "empty",
    }
    tile = view["tiles"].get(name)
    if tile is not None:
        owner = None if tile["owner"] is None else colours[tile["owner"]]
        cell.update(
            kind="tile",
            company=tile["company"],
            tile_colour=view["company_colours"][tile["company"]],
            height=tile["height"],
            owner=owner,
            pip=tile["pip"],
            pip_face=DIE_FACES.get(tile["pip"], ""),
        )
    elif name in view["markers"]:
        cell.update(kind="marker", owner=colours[view["markers"][name]])
    elif not in_play(name, players):
        cell.update(kind="out")
    cell["label"] = str(describe_lot(view, name))  # the engine's words, the reader's language
    return cell


def _colour(colour: str) -> str:
    """A Lords of Vegas colour's name in the reader's language."""
    return str(get_engine("lords-of-vegas").colour_name(colour)) if colour else ""


# -- Vegas ---------------------------------------------------------------------------------


def vegas_board(view: dict[str, Any], seat_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The six casinos: their notes (highest first, the order they pay in) and the dice on
    them by colour; the current roll; a plain list for screen readers."""
    colours = {s["seat"]: s["colour"] for s in view["seats"]}
    casinos = []
    for c in view["casinos"]:
        dice = [
            {"colour": colours[seat], "count": count}
            for seat, count in enumerate(c["dice"])
            if count
        ]
        if c["white"]:
            dice.append({"colour": "white", "count": c["white"]})
        casinos.append(
            {
                "number": c["number"],
                "face": DIE_FACES[c["number"]],
                "notes": [money(n) for n in sorted(c["notes"], reverse=True)],
                "dice": dice,
            }
        )
    roll = view.get("roll")
    shown_roll = None
    if roll is not None:
        shown_roll = {
            "colour": colours[roll["seat"]],
            "own": roll["own"],
            "white": roll["white"],
            "choices": view["choices"],
        }
    board = {
        "round": view["round"],
        "rounds": view["rounds"],
        "start": colours.get(view["start_player"]),
        "casinos": casinos,
        "roll": shown_roll,
        "pile": view["pile"],
        "finished": view["finished"],
    }
    board["described"] = _vegas_lines(board, seat_rows)
    return board


def _vegas_lines(board: dict[str, Any], seat_rows: list[dict[str, Any]]) -> list[str]:
    lines = [f"Round {board['round']} of {board['rounds']}."]
    for c in board["casinos"]:
        notes = ", ".join(c["notes"]) or "no notes"
        dice = ", ".join(f"{d['count']} {d['colour']}" for d in c["dice"]) or "no dice"
        lines.append(f"Casino {c['number']}: notes {notes}; dice {dice}.")
    roll = board["roll"]
    if roll is not None:
        white = f" and white {' '.join(map(str, roll['white']))}" if roll["white"] else ""
        own = " ".join(map(str, roll["own"]))
        lines.append(f"{roll['colour'].capitalize()} rolled {own}{white}.")
    for s in seat_rows:
        lines.append(f"{s['colour'].capitalize()} ({s['name']}): {s['detail']}, {s['money']}.")
    lines.append(f"The pile holds {board['pile']} notes face down.")
    return lines


# -- the lobby -----------------------------------------------------------------------------


def game_row(game: Any) -> dict[str, Any]:
    """One game of a lobby list (a ``Game`` with its seats prefetched): no engine work."""
    seats = sorted(game.seats.all(), key=lambda s: s.order)
    return {
        "id": game.pk,
        "title": f"{game_name(game.game_type)} #{game.pk}",
        "edition": edition(game.game_type, game.options),
        "private": game.private,
        "status": game.status,
        "deadline": game.deadline,
        "seats": [{"name": s.name, "colour": s.colour, "to_act": s.to_act} for s in seats],
        "waiting_on": ", ".join(s.name for s in seats if s.to_act),
        "taken": len(seats),
        "max_seats": game.max_seats,
    }
