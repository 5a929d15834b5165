"""What a seat may see, the board as plain text for email, and events as sentences.

Hidden: the seed, the order of the pile, and every other player's money until the end (the
notes lie face down in front of their owner; how many each holds is public)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engines.base import JSON, Event, State
from games.engines.vegas.commands import CASINOS
from games.engines.vegas.rules import (
    COLOURS,
    ROUNDS,
    WHITE,
    colour_name,
    rolled_numbers,
    standings,
)

WIDTH = 80
LABEL = 9
COLUMN = 10


def money(value: int) -> str:
    return f"${value:,}"


def plural(count: int, word: str, words: str) -> str:
    return f"{count} {word if count == 1 else words}"


# -- the view ---------------------------------------------------------------------------


def view(state: State, seat: int | None) -> JSON:
    """Everything public, plus ``seat``'s own money; no seed, no pile order."""
    finished = state["finished"]
    roll = state["roll"]
    result: JSON = {
        "game": "vegas",
        "variant": state["variant"],
        "players": state["players"],
        "viewer": seat,
        "round": state["round"],
        "rounds": ROUNDS,
        "start_player": state["start"],
        "active": state["active"],
        "finished": finished,
        "moves": state["n"],
        "roll": None if roll is None else {"seat": state["active"], **roll},
        "choices": rolled_numbers(state),
        "pile": len(state["pile"]),
        "casinos": [
            _casino_view(number, casino)
            for number, casino in zip(CASINOS, state["casinos"], strict=True)
        ],
        "seats": [_seat_view(state, s, seat) for s in range(state["players"])],
    }
    if finished:
        result["standings"] = [
            {"seat": s, "rank": rank, "money": total, "notes": notes}
            for s, rank, total, notes in standings(state)
        ]
    return result


def _casino_view(number: int, casino: JSON) -> JSON:
    return {
        "number": number,
        "notes": list(casino["notes"]),
        "dice": list(casino["dice"]),
        "white": casino["white"],
    }


def _seat_view(state: State, seat: int, viewer: int | None) -> JSON:
    won = state["won"][seat]
    visible = state["finished"] or seat == viewer
    return {
        "seat": seat,
        "colour": COLOURS[seat],
        "dice": state["dice"][seat],
        "white": state["white"][seat],
        "notes": len(won),
        "money": sum(won) if visible else None,
    }


# -- plain text -----------------------------------------------------------------------------


def render_text(v: JSON) -> str:
    """The casinos, their notes, the dice on each by colour, the roll and the players."""
    lines = [_title(v), ""]
    if not v["finished"]:
        lines.append(_row("Casino", [str(n) for n in CASINOS]))
        lines.extend(_note_rows(v["casinos"]))
        lines.extend(_dice_rows(v))
        lines.append("")
    lines.extend(_roll_lines(v))
    lines.extend(_seat_lines(v))
    lines.append(f"The pile holds {v['pile']} notes face down.")
    return "\n".join(line.rstrip()[:WIDTH] for line in lines)


def _title(v: JSON) -> str:
    variant = " with neutral dice" if v["variant"] == "neutral" else ""
    if v["finished"]:
        return f"Vegas{variant}: the game is over after {v['rounds']} rounds."
    start = colour_name(v["start_player"])
    return f"Vegas{variant}: round {v['round']} of {v['rounds']}, start player {start}."


def _row(label: str, cells: Sequence[str]) -> str:
    return label.ljust(LABEL) + "".join(cell.rjust(COLUMN) for cell in cells)


def _note_rows(casinos: list[JSON]) -> list[str]:
    """Highest first, the order in which the casino pays."""
    piles = [sorted(c["notes"], reverse=True) for c in casinos]
    depth = max(map(len, piles), default=0)
    rows = []
    for i in range(depth):
        cells = [money(notes[i]) if i < len(notes) else "" for notes in piles]
        rows.append(_row("Notes" if i == 0 else "", cells))
    return rows or [_row("Notes", ["-"] * len(casinos))]


def _dice_rows(v: JSON) -> list[str]:
    casinos = v["casinos"]
    rows = []
    for seat in range(v["players"]):
        counts = [c["dice"][seat] for c in casinos]
        if any(counts):
            rows.append(_row(colour_name(seat), [str(k) if k else "." for k in counts]))
    whites = [c["white"] for c in casinos]
    if any(whites):
        rows.append(_row(colour_name(WHITE), [str(k) if k else "." for k in whites]))
    return rows or [_row("Dice", ["." for _ in casinos])]


def _roll_lines(v: JSON) -> list[str]:
    roll = v["roll"]
    if roll is None:
        return []
    dice = " ".join(map(str, roll["own"])) or "no dice of their colour"
    if roll["white"]:
        dice += " + white " + " ".join(map(str, roll["white"]))
    choices = ", ".join(map(str, v["choices"]))
    return [
        f"{colour_name(roll['seat'])} rolled {dice}.",
        f"Place one number: {choices} (e.g. 'place {v['choices'][0]}').",
        "",
    ]


def _seat_lines(v: JSON) -> list[str]:
    lines = []
    for s in [] if v["finished"] else v["seats"]:
        dice = plural(s["dice"], "die", "dice") + (f" + {s['white']} white" if s["white"] else "")
        total = "money hidden" if s["money"] is None else money(s["money"])
        mark = " (you)" if s["seat"] == v["viewer"] else ""
        name = colour_name(s["seat"]) + mark
        lines.append(f"{name}: {dice} in hand, {plural(s['notes'], 'note', 'notes')}, {total}.")
    for row in v.get("standings", []):
        lines.append(
            f"{row['rank']}. {colour_name(row['seat'])}: {money(row['money'])} "
            f"in {plural(row['notes'], 'note', 'notes')}."
        )
    return lines


# -- events as sentences -------------------------------------------------------------------


def describe(event: Event, names: Sequence[str]) -> str:
    """One sentence per event; ``names[seat]`` names each seat, white is 'White'."""
    describer = _DESCRIBERS.get(event.get("type", ""))
    if describer is None:
        return f"Something happened: {event!r}."
    return describer(event, names)


def _name(party: int | str, names: Sequence[str]) -> str:
    if party == WHITE:
        return "White (the neutral dice)"
    seat = int(party)
    return names[seat] if seat < len(names) else colour_name(seat)


def _list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _round_start(e: Event, names: Sequence[str]) -> str:
    return f"Round {e['round']} of {ROUNDS} begins; {_name(e['start_player'], names)} starts."


def _deal(e: Event, names: Sequence[str]) -> str:
    if not e["notes"]:
        return f"Casino {e['casino']} gets no notes: the pile is empty."
    notes = _list([money(v) for v in e["notes"]])
    return f"Casino {e['casino']} is dealt {notes}."


def _white_roll(e: Event, names: Sequence[str]) -> str:
    dice = _list([str(d) for d in e["dice"]])
    return (
        f"{_name(e['seat'], names)} rolls the spare white dice: {dice}; "
        f"they go to the casinos they show."
    )


def _roll(e: Event, names: Sequence[str]) -> str:
    dice = " ".join(map(str, e["own"])) or "no dice of their colour"
    if e["white"]:
        dice += " and white " + " ".join(map(str, e["white"]))
    return f"{_name(e['seat'], names)} rolls {dice}."


def _place(e: Event, names: Sequence[str]) -> str:
    own = plural(e["own"], "own die", "own dice") if e["white"] else plural(e["own"], "die", "dice")
    parts = [own] if e["own"] else []
    if e["white"]:
        parts.append(plural(e["white"], "white die", "white dice"))
    return f"{_name(e['seat'], names)} places {_list(parts)} on casino {e['number']}."


def _payout(e: Event, names: Sequence[str]) -> str:
    if not e["dice"]:
        return f"Casino {e['casino']} has no dice and pays nobody."
    if not e["removed"]:
        return f"Casino {e['casino']} pays out with no tie."
    removed = _list([_name(p, names) for p in e["removed"]])
    return f"At casino {e['casino']}, {removed} tie and take their dice back empty-handed."


def _note_taken(e: Event, names: Sequence[str]) -> str:
    who, note = _name(e["seat"], names), money(e["value"])
    return f"{who} takes the {note} note from casino {e['casino']}."


def _notes_returned(e: Event, names: Sequence[str]) -> str:
    parts = []
    if e["white"]:
        parts.append(f"White takes {_list([money(v) for v in e['white']])}")
    if e["unclaimed"]:
        parts.append(f"nobody takes {_list([money(v) for v in e['unclaimed']])}")
    return f"At casino {e['casino']}, {' and '.join(parts)}: back under the pile."


def _game_end(e: Event, names: Sequence[str]) -> str:
    rows = [
        f"{p['rank']}. {_name(p['seat'], names)} {money(p['money'])} "
        f"({plural(p['notes'], 'note', 'notes')})"
        for p in e["placings"]
    ]
    return "The game is over: " + "; ".join(rows) + "."


_DESCRIBERS: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "round_start": _round_start,
    "deal": _deal,
    "white_roll": _white_roll,
    "roll": _roll,
    "place": _place,
    "payout": _payout,
    "note_taken": _note_taken,
    "notes_returned": _notes_returned,
    "game_end": _game_end,
}
