"""The rules of Vegas as small functions over the plain state dict.

The state (JSON, see ``docs/vegas.md``)::

    seed, n, players, variant ("standard" | "neutral"), round (1-4), start (start seat),
    active (seat to act, None at the end), roll ({"own": [...], "white": [...]} or None),
    pile (note values, top first), casinos (6 x {"notes": [...], "dice": [per seat], "white": k}),
    dice (own dice in hand per seat), white (white dice in hand per seat),
    spare_white (white dice nobody holds: the two rolled for the start player at 3 players),
    won (note values per seat), finished (bool).

Functions named ``_...`` mutate the *copy* that :func:`apply_place` works on; nothing here
touches the caller's state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engines.base import Event, IllegalCommand, InvalidOptions, OutOfTurn, State
from games.engines.rng import Rng, shuffle
from games.engines.text import Join, Text, _, and_list, ngettext
from games.engines.vegas.commands import CASINOS, EXAMPLE, Place

ROUNDS = 4
DICE_PER_PLAYER = 8
WHITE_DICE = 8
CASINO_MINIMUM = 50_000
VARIANTS = ("standard", "neutral")
WHITE = "white"
"""The neutral party at payout (the variant's imaginary extra player)."""

NOTE_COUNTS: dict[int, int] = {
    10_000: 6,
    20_000: 8,
    30_000: 8,
    40_000: 6,
    50_000: 6,
    60_000: 5,
    70_000: 5,
    80_000: 5,
    90_000: 5,
}
"""The 54 banknotes of the box ($2,500,000 in all)."""

ALL_NOTES: tuple[int, ...] = tuple(v for v, k in sorted(NOTE_COUNTS.items()) for _copy in range(k))

COLOURS = ("red", "blue", "green", "yellow", "black")
"""Seat colours in seat order; white is the neutral colour of the variant."""

Party = int | str
"""A seat at payout, or :data:`WHITE`."""


COLOUR_NAMES: dict[str, Text] = {
    "red": _("Red"),
    "blue": _("Blue"),
    "green": _("Green"),
    "yellow": _("Yellow"),
    "black": _("Black"),
    WHITE: _("White"),
}
"""Each colour's name, capitalised: in Vegas a colour stands for its party, like a name."""


def colour_name(party: Party) -> Text:
    """``Red``, ``Blue``... or ``White`` (the neutral dice), in the reader's language."""
    if party == WHITE:
        return COLOUR_NAMES[WHITE]
    if isinstance(party, int) and 0 <= party < len(COLOURS):
        return COLOUR_NAMES[COLOURS[party]]
    return _("seat %(seat)s", seat=party)


# -- options ------------------------------------------------------------------------------


def player_range(variant: str) -> tuple[int, int]:
    """The neutral dice exist only while a colour is unused: 2 to 4 players."""
    return (2, 4) if variant == "neutral" else (2, 5)


def white_per_player(variant: str, players: int) -> int:
    """4 white dice each at 2 players, 2 each at 3-4 (the variant); none otherwise."""
    if variant != "neutral":
        return 0
    return 4 if players == 2 else 2


def normalize_options(options: Any, players: int) -> dict[str, Any]:
    """Only ``variant`` is known; unknown keys are refused so that a typo is not ignored."""
    if not hasattr(options, "keys"):
        raise InvalidOptions(_("options must be a mapping, not %(options)s", options=repr(options)))
    unknown = [repr(key) for key in sorted(set(options) - {"variant"})]
    if unknown:
        raise InvalidOptions(
            ngettext(
                "unknown Vegas option %(names)s",
                "unknown Vegas options %(names)s",
                len(unknown),
                names=and_list(unknown),
            )
        )
    variant = options.get("variant", "standard")
    if variant not in VARIANTS:
        raise InvalidOptions(
            _(
                "variant %(variant)s is not one of %(variants)s",
                variant=repr(variant),
                variants=Join([repr(v) for v in VARIANTS]),
            )
        )
    low, high = player_range(variant)
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise InvalidOptions(_player_count_refusal(variant, low, high, players))
    return {"variant": variant}


def _player_count_refusal(variant: str, low: int, high: int, players: object) -> Text:
    """Two whole sentences, one per variant, so that a translator words each."""
    if variant == "neutral":
        return _(
            "the neutral game of Vegas needs %(low)s to %(high)s players, not %(players)s",
            low=low,
            high=high,
            players=repr(players),
        )
    return _(
        "the standard game of Vegas needs %(low)s to %(high)s players, not %(players)s",
        low=low,
        high=high,
        players=repr(players),
    )


# -- setting up ------------------------------------------------------------------------------


def new_state(players: int, variant: str, seed: str, rng: Rng) -> tuple[State, list[Event]]:
    """Shuffle the notes, then start round 1 with seat 0 holding the start-player card."""
    pile = list(ALL_NOTES)
    shuffle(rng, pile)
    state: State = {
        "seed": seed,
        "n": 0,
        "players": players,
        "variant": variant,
        "round": 0,
        "start": players - 1,  # _start_round passes the card left, to seat 0
        "active": None,
        "roll": None,
        "pile": pile,
        "casinos": [{"notes": [], "dice": [0] * players, "white": 0} for _casino in CASINOS],
        "dice": [0] * players,
        "white": [0] * players,
        "spare_white": 0,
        "won": [[] for _seat in range(players)],
        "finished": False,
    }
    _return_dice(state)
    events = _start_round(state, rng)
    return state, events


def _deal(state: State, casino: dict[str, Any]) -> list[int]:
    """Notes from the top of the pile until the casino holds at least $50,000.

    Should the pile ever run dry (it cannot in practice), the casino keeps what it got."""
    dealt: list[int] = []
    while sum(casino["notes"]) < CASINO_MINIMUM and state["pile"]:
        note = state["pile"].pop(0)
        casino["notes"].append(note)
        dealt.append(note)
    return dealt


def _start_round(state: State, rng: Rng) -> list[Event]:
    """Pass the card left, hand out the dice, fill the casinos and roll for the start player."""
    players = state["players"]
    state["round"] += 1
    state["start"] = (state["start"] + 1) % players
    events: list[Event] = [
        {"type": "round_start", "round": state["round"], "start_player": state["start"]}
    ]
    for number, casino in zip(CASINOS, state["casinos"], strict=True):
        events.append({"type": "deal", "casino": number, "notes": _deal(state, casino)})
    if state["spare_white"]:
        events.append(_roll_spare_white(state, rng))
    state["active"] = state["start"]
    events.append(_roll(state, rng))
    return events


def _return_dice(state: State) -> None:
    """Every die back to its reserve: 8 of their colour each, plus the variant's white dice."""
    players = state["players"]
    whites = white_per_player(state["variant"], players)
    state["dice"] = [DICE_PER_PLAYER] * players
    state["white"] = [whites] * players
    state["spare_white"] = WHITE_DICE - whites * players if whites else 0


def _roll_spare_white(state: State, rng: Rng) -> Event:
    """At 3 players the two white dice nobody holds go straight to the casinos they show."""
    dice = sorted(rng.die() for _die in range(state["spare_white"]))
    for number in dice:
        state["casinos"][number - 1]["white"] += 1
    state["spare_white"] = 0
    return {"type": "white_roll", "seat": state["start"], "dice": dice}


def _roll(state: State, rng: Rng) -> Event:
    """Roll the active seat's remaining dice: the roll is public, the answer one number."""
    seat = state["active"]
    own = sorted(rng.die() for _die in range(state["dice"][seat]))
    white = sorted(rng.die() for _die in range(state["white"][seat]))
    state["roll"] = {"own": own, "white": white}
    return {"type": "roll", "seat": seat, "own": own, "white": white}


# -- playing ------------------------------------------------------------------------------


def rolled_numbers(state: State) -> list[int]:
    """The distinct numbers of the current roll, own and white."""
    roll = state["roll"]
    if roll is None:
        return []
    return sorted(set(roll["own"]) | set(roll["white"]))


def check_place(state: State, seat: int | None, command: object) -> Place:
    """Refuse, with a reason, anything but the active seat placing a number it rolled."""
    if not isinstance(command, Place):
        raise IllegalCommand(
            _(
                "%(command)s is not a Vegas command; write e.g. %(example)s",
                command=repr(command),
                example=EXAMPLE,
            )
        )
    if state["finished"]:
        raise IllegalCommand(_("%(command)s: the game is over", command=str(command)))
    if seat is None:
        raise IllegalCommand(
            _(
                "%(command)s: in Vegas only the player whose turn it is places dice",
                command=str(command),
            )
        )
    if seat != state["active"]:
        raise OutOfTurn(
            _(
                "%(command)s: it is %(active)s's turn, not %(yours)s's",
                command=str(command),
                active=colour_name(state["active"]),
                yours=colour_name(seat),
            )
        )
    if command.number not in rolled_numbers(state):
        raise IllegalCommand(_not_rolled(command, state["roll"]))
    return command


def dice_text(dice: Sequence[int]) -> str:
    """``1 1 5``: dice faces as players write them (digits, the same in every language)."""
    return " ".join(map(str, dice))


def _not_rolled(command: Place, roll: dict[str, list[int]]) -> Text:
    """``you rolled 1 1 5 + white 1 6; there is no 4 to place``: one whole sentence for each
    kind of roll (own dice, own and white, white only)."""
    own, white = dice_text(roll["own"]), dice_text(roll["white"])
    params = {"command": str(command), "own": own, "white": white, "number": command.number}
    if not white:
        return _("%(command)s: you rolled %(own)s; there is no %(number)s to place", **params)
    if own:
        return _(
            "%(command)s: you rolled %(own)s + white %(white)s; there is no %(number)s to place",
            **params,
        )
    return _(
        "%(command)s: you rolled no dice of your colour + white %(white)s; "
        "there is no %(number)s to place",
        **params,
    )


def apply_place(
    state: State, seat: int | None, command: object, rng: Rng
) -> tuple[State, list[Event]]:
    """Place the dice, then either roll for the next seat or pay out and start the next round.

    Works on a copy; ``state`` is checked first so nothing can half-apply."""
    place = check_place(state, seat, command)
    seat = state["active"]  # the seat that was checked to be the one to act
    new = copy_state(state)
    new["n"] += 1
    events = [_place(new, seat, place.number)]
    nxt = next_seat_with_dice(new, seat)
    if nxt is not None:
        new["active"] = nxt
        events.append(_roll(new, rng))
        return new, events
    events.extend(_pay_all(new))
    if new["round"] == ROUNDS:
        events.append(_finish(new))
    else:
        events.extend(_start_round(new, rng))
    return new, events


def _place(state: State, seat: int, number: int) -> Event:
    """All dice of ``number``, own and white, go to casino ``number`` (none may stay back)."""
    roll = state["roll"]
    own = roll["own"].count(number)
    white = roll["white"].count(number)
    casino = state["casinos"][number - 1]
    casino["dice"][seat] += own
    casino["white"] += white
    state["dice"][seat] -= own
    state["white"][seat] -= white
    state["roll"] = None
    return {"type": "place", "seat": seat, "number": number, "own": own, "white": white}


def dice_left(state: State, seat: int) -> int:
    """Own and white dice still in ``seat``'s hand this round."""
    return int(state["dice"][seat] + state["white"][seat])


def next_seat_with_dice(state: State, seat: int) -> int | None:
    """Clockwise from the seat after ``seat`` (itself last): seats without dice are skipped."""
    players = state["players"]
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if dice_left(state, candidate):
            return int(candidate)
    return None


# -- payout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payout:
    """What one casino pays: who was removed by a tie, who took which note, what goes back."""

    removed: tuple[Party, ...]
    awards: tuple[tuple[Party, int], ...]
    unclaimed: tuple[int, ...]


def pay_casino(notes: Sequence[int], dice: dict[Party, int]) -> Payout:
    """The payout rule of the book, for one casino.

    Every party sharing its count of dice with another is removed (every tie, not only for
    first); the others take the notes highest first by count; notes left over are unclaimed.
    """
    present = {party: count for party, count in dice.items() if count > 0}
    counts = Counter(present.values())
    removed = tuple(p for p in present if counts[present[p]] > 1)
    ranked = sorted((p for p in present if counts[present[p]] == 1), key=lambda p: -present[p])
    ordered = sorted(notes, reverse=True)
    awards = tuple(zip(ranked, ordered, strict=False))
    return Payout(removed=removed, awards=awards, unclaimed=tuple(ordered[len(awards) :]))


def casino_parties(casino: dict[str, Any]) -> dict[Party, int]:
    """The dice on a casino by party: seats in order, then white."""
    parties: dict[Party, int] = dict(enumerate(casino["dice"]))
    if casino["white"]:
        parties[WHITE] = casino["white"]
    return parties


def _pay_all(state: State) -> list[Event]:
    """Casinos 1 to 6 pay in turn; every die goes back; returned notes go under the pile."""
    events: list[Event] = []
    for number, casino in zip(CASINOS, state["casinos"], strict=True):
        events.extend(_pay_one(state, number, casino))
    _return_dice(state)
    return events


def _pay_one(state: State, number: int, casino: dict[str, Any]) -> list[Event]:
    parties = casino_parties(casino)
    payout = pay_casino(casino["notes"], parties)
    events: list[Event] = [
        {
            "type": "payout",
            "casino": number,
            "dice": [[party, count] for party, count in parties.items() if count],
            "removed": list(payout.removed),
            "awards": [[party, value] for party, value in payout.awards],
        }
    ]
    white_notes = [value for party, value in payout.awards if party == WHITE]
    for party, value in payout.awards:
        if party != WHITE:
            state["won"][party].append(value)
            events.append({"type": "note_taken", "seat": party, "casino": number, "value": value})
    returned = white_notes + list(payout.unclaimed)
    if returned:
        state["pile"].extend(returned)
        events.append(
            {
                "type": "notes_returned",
                "casino": number,
                "white": white_notes,
                "unclaimed": list(payout.unclaimed),
            }
        )
    casino["notes"] = []
    casino["dice"] = [0] * state["players"]
    casino["white"] = 0
    return events


# -- the end --------------------------------------------------------------------------------


def standings(state: State) -> list[tuple[int, int, int, int]]:
    """``(seat, rank, money, notes)`` best first: money, then number of notes, then shared."""
    keyed = [(seat, sum(won), len(won)) for seat, won in enumerate(state["won"])]
    keyed.sort(key=lambda row: (-row[1], -row[2], row[0]))
    result: list[tuple[int, int, int, int]] = []
    for index, (seat, money, notes) in enumerate(keyed):
        tied_with_previous = index and keyed[index - 1][1:] == (money, notes)
        rank = result[-1][1] if tied_with_previous else index + 1
        result.append((seat, rank, money, notes))
    return result


def _finish(state: State) -> Event:
    state["finished"] = True
    state["active"] = None
    state["roll"] = None
    return {
        "type": "game_end",
        "placings": [
            {"seat": seat, "rank": rank, "money": money, "notes": notes}
            for seat, rank, money, notes in standings(state)
        ],
    }


# -- copying ----------------------------------------------------------------------------


def copy_state(state: State) -> State:
    """A deep copy specialised to this layout (several times faster than ``copy.deepcopy``)."""
    new = dict(state)
    new["pile"] = list(state["pile"])
    new["casinos"] = [
        {"notes": list(c["notes"]), "dice": list(c["dice"]), "white": c["white"]}
        for c in state["casinos"]
    ]
    new["dice"] = list(state["dice"])
    new["white"] = list(state["white"])
    new["won"] = [list(w) for w in state["won"]]
    roll = state["roll"]
    new["roll"] = None if roll is None else {"own": list(roll["own"]), "white": list(roll["white"])}
    return new
