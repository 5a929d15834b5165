"""What a seat may see, the board as plain text for email, and events as sentences.

The view is data only (ids, numbers, ``None`` for hidden money); the board and the sentences
are :class:`~games.engines.text.Text`, said in the reader's language when rendered.

Hidden: the seed, the order of the pile, and every other player's money until the end (the
notes lie face down in front of their owner; how many each holds is public)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engines.base import JSON, Event, State
from games.engines.text import Join, Number, Text, _, and_list, ngettext
from games.engines.vegas.commands import CASINOS
from games.engines.vegas.rules import (
    COLOURS,
    ROUNDS,
    WHITE,
    colour_name,
    dice_text,
    rolled_numbers,
    standings,
)

WIDTH = 80
LABEL = 9
COLUMN = 10


def money(value: int) -> Text:
    """``$50,000`` as the banknotes print it, the number written as the reader's language
    writes it (``50 000 $`` in French: the catalog places the sign)."""
    return _("$%(amount)s", amount=Number(value))


def notes_text(count: int) -> Text:
    """``1 note``, ``7 notes``: the web page's seats and result say it too."""
    return ngettext("%(count)s note", "%(count)s notes", count, count=count)


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
    """The casinos, their notes, the dice on each by colour, the roll and the players, in the
    language active when it is called."""
    lines = [str(_title(v)), ""]
    if not v["finished"]:
        # Translators: the row label above the casino numbers 1 to 6 on the text board.
        lines.append(_row(_("Casino"), [str(n) for n in CASINOS]))
        lines.extend(_note_rows(v["casinos"]))
        lines.extend(_dice_rows(v))
        lines.append("")
    lines.extend(str(line) for line in _roll_lines(v))
    lines.extend(str(line) for line in _seat_lines(v))
    lines.append(
        str(
            ngettext(
                "The pile holds %(count)s note face down.",
                "The pile holds %(count)s notes face down.",
                v["pile"],
                count=v["pile"],
            )
        )
    )
    return "\n".join(line.rstrip()[:WIDTH] for line in lines)


def _title(v: JSON) -> Text:
    """Four whole sentences: over or not, with the neutral dice or not."""
    rounds, neutral = v["rounds"], v["variant"] == "neutral"
    if v["finished"] and neutral:
        return ngettext(
            "Vegas with neutral dice: the game is over after %(rounds)s round.",
            "Vegas with neutral dice: the game is over after %(rounds)s rounds.",
            rounds,
            rounds=rounds,
        )
    if v["finished"]:
        return ngettext(
            "Vegas: the game is over after %(rounds)s round.",
            "Vegas: the game is over after %(rounds)s rounds.",
            rounds,
            rounds=rounds,
        )
    params = {"round": v["round"], "rounds": rounds, "start": colour_name(v["start_player"])}
    if neutral:
        return _(
            "Vegas with neutral dice: round %(round)s of %(rounds)s, start player %(start)s.",
            **params,
        )
    return _("Vegas: round %(round)s of %(rounds)s, start player %(start)s.", **params)


def _row(label: Text | str, cells: Sequence[str]) -> str:
    return str(label).ljust(LABEL) + "".join(cell.rjust(COLUMN) for cell in cells)


def _note_rows(casinos: list[JSON]) -> list[str]:
    """Highest first, the order in which the casino pays."""
    # Translators: the row label of the banknotes on each casino, on the text board.
    label = _("Notes")
    piles = [sorted(c["notes"], reverse=True) for c in casinos]
    depth = max(map(len, piles), default=0)
    rows = []
    for i in range(depth):
        cells = [str(money(notes[i])) if i < len(notes) else "" for notes in piles]
        rows.append(_row(label if i == 0 else "", cells))
    return rows or [_row(label, ["-"] * len(casinos))]


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
    # Translators: the row label of the dice on the casinos, on the text board.
    return rows or [_row(_("Dice"), ["." for _casino in casinos])]


def _roll_lines(v: JSON) -> list[Text | str]:
    roll = v["roll"]
    if roll is None:
        return []
    choices = v["choices"]
    return [
        rolled(colour_name(roll["seat"]), roll),
        _(
            "Place one number: %(choices)s (e.g. %(example)s).",
            choices=Join([str(n) for n in choices]),
            example=f"'place {choices[0]}'",
        ),
        "",
    ]


def rolled(who: Text | str, roll: JSON) -> Text:
    """One whole sentence for each kind of roll (own dice, own and white, white only); the
    web page's screen-reader text of the roll says it too, so that the white dice are named
    in the reader's language there as well."""
    own, white = dice_text(roll["own"]), dice_text(roll["white"])
    if not white:
        return _("%(colour)s rolled %(own)s.", colour=who, own=own)
    if own:
        return _("%(colour)s rolled %(own)s + white %(white)s.", colour=who, own=own, white=white)
    return _(
        "%(colour)s rolled no dice of their colour + white %(white)s.", colour=who, white=white
    )


def in_hand(dice: int, white: int) -> Text:
    """``5 dice`` or ``5 dice + 2 white``: each number with its own plural (the web page's
    seats say it too: its own sentence had one plural for both numbers)."""
    own = ngettext("%(count)s die", "%(count)s dice", dice, count=dice)
    if not white:
        return own
    return _(
        "%(dice)s + %(white)s",
        dice=own,
        # Translators: white dice in a player's hand, after their own: "5 dice + 2 white".
        white=ngettext("%(count)s white", "%(count)s white", white, count=white),
    )


def _seat_line(s: JSON, viewer: int | None) -> Text:
    """``Red (you): 6 dice in hand, 0 notes, $0.``: the viewer's money, the others' hidden."""
    params = {
        "colour": colour_name(s["seat"]),
        "dice": in_hand(s["dice"], s["white"]),
        "notes": notes_text(s["notes"]),
        "money": None if s["money"] is None else money(s["money"]),
    }
    if s["money"] is None:
        return _("%(colour)s: %(dice)s in hand, %(notes)s, money hidden.", **params)
    if s["seat"] == viewer:
        return _("%(colour)s (you): %(dice)s in hand, %(notes)s, %(money)s.", **params)
    return _("%(colour)s: %(dice)s in hand, %(notes)s, %(money)s.", **params)


def _seat_lines(v: JSON) -> list[Text]:
    lines = [_seat_line(s, v["viewer"]) for s in ([] if v["finished"] else v["seats"])]
    for row in v.get("standings", []):
        lines.append(
            ngettext(
                "%(rank)s. %(colour)s: %(money)s in %(count)s note.",
                "%(rank)s. %(colour)s: %(money)s in %(count)s notes.",
                row["notes"],
                rank=row["rank"],
                colour=colour_name(row["seat"]),
                money=money(row["money"]),
                count=row["notes"],
            )
        )
    return lines


# -- events as sentences -------------------------------------------------------------------


def describe(event: Event, names: Sequence[str]) -> Text:
    """One sentence per event; ``names[seat]`` names each seat, white is 'White'."""
    describer = _DESCRIBERS.get(event.get("type", ""))
    if describer is None:
        return _("Something happened: %(event)s.", event=repr(event))
    return describer(event, names)


def _name(party: int | str, names: Sequence[str]) -> Text | str:
    if party == WHITE:
        return _("White (the neutral dice)")
    seat = int(party)
    return names[seat] if seat < len(names) else colour_name(seat)


def _round_start(e: Event, names: Sequence[str]) -> Text:
    return _(
        "Round %(round)s of %(rounds)s begins; %(name)s starts.",
        round=e["round"],
        rounds=ROUNDS,
        name=_name(e["start_player"], names),
    )


def _deal(e: Event, names: Sequence[str]) -> Text:
    if not e["notes"]:
        return _("Casino %(casino)s gets no notes: the pile is empty.", casino=e["casino"])
    notes = and_list([money(v) for v in e["notes"]])
    return _("Casino %(casino)s is dealt %(notes)s.", casino=e["casino"], notes=notes)


def _white_roll(e: Event, names: Sequence[str]) -> Text:
    return _(
        "%(name)s rolls the spare white dice: %(dice)s; they go to the casinos they show.",
        name=_name(e["seat"], names),
        dice=and_list([str(d) for d in e["dice"]]),
    )


def _roll(e: Event, names: Sequence[str]) -> Text:
    """One whole sentence for each kind of roll (own dice, own and white, white only)."""
    name, own, white = _name(e["seat"], names), dice_text(e["own"]), dice_text(e["white"])
    if not white:
        return _("%(name)s rolls %(own)s.", name=name, own=own)
    if own:
        return _("%(name)s rolls %(own)s and white %(white)s.", name=name, own=own, white=white)
    return _("%(name)s rolls no dice of their colour and white %(white)s.", name=name, white=white)


def _place(e: Event, names: Sequence[str]) -> Text:
    name, own, white, casino = _name(e["seat"], names), e["own"], e["white"], e["number"]
    if not white:
        return ngettext(
            "%(name)s places %(count)s die on casino %(casino)s.",
            "%(name)s places %(count)s dice on casino %(casino)s.",
            own,
            name=name,
            count=own,
            casino=casino,
        )
    whites = ngettext("%(count)s white die", "%(count)s white dice", white, count=white)
    if not own:
        return _(
            "%(name)s places %(white)s on casino %(casino)s.",
            name=name,
            white=whites,
            casino=casino,
        )
    return _(
        "%(name)s places %(own)s and %(white)s on casino %(casino)s.",
        name=name,
        own=ngettext("%(count)s own die", "%(count)s own dice", own, count=own),
        white=whites,
        casino=casino,
    )


def _payout(e: Event, names: Sequence[str]) -> Text:
    if not e["dice"]:
        return _("Casino %(casino)s has no dice and pays nobody.", casino=e["casino"])
    if not e["removed"]:
        return _("Casino %(casino)s pays out with no tie.", casino=e["casino"])
    return _(
        "At casino %(casino)s, %(removed)s tie and take their dice back empty-handed.",
        casino=e["casino"],
        removed=and_list([_name(p, names) for p in e["removed"]]),
    )


def _note_taken(e: Event, names: Sequence[str]) -> Text:
    return _(
        "%(name)s takes the %(note)s note from casino %(casino)s.",
        name=_name(e["seat"], names),
        note=money(e["value"]),
        casino=e["casino"],
    )


def _notes_returned(e: Event, names: Sequence[str]) -> Text:
    """Three whole sentences: White's notes, notes nobody won, or both."""
    white = and_list([money(v) for v in e["white"]]) if e["white"] else None
    unclaimed = and_list([money(v) for v in e["unclaimed"]]) if e["unclaimed"] else None
    params = {"casino": e["casino"], "white": white, "unclaimed": unclaimed}
    if white and unclaimed:
        return _(
            "At casino %(casino)s, White takes %(white)s and nobody takes %(unclaimed)s: "
            "back under the pile.",
            **params,
        )
    if white:
        return _("At casino %(casino)s, White takes %(white)s: back under the pile.", **params)
    return _("At casino %(casino)s, nobody takes %(unclaimed)s: back under the pile.", **params)


def _game_end(e: Event, names: Sequence[str]) -> Text:
    rows = [
        ngettext(
            "%(rank)s. %(name)s %(money)s (%(count)s note)",
            "%(rank)s. %(name)s %(money)s (%(count)s notes)",
            p["notes"],
            rank=p["rank"],
            name=_name(p["seat"], names),
            money=money(p["money"]),
            count=p["notes"],
        )
        for p in e["placings"]
    ]
    return _("The game is over: %(placings)s.", placings=Join(rows, "; "))


_DESCRIBERS: dict[str, Callable[[Event, Sequence[str]], Text]] = {
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
