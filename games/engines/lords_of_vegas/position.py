"""A position format in the spirit of chess's FEN: a small text block, one ``key: value``
line per part of the state, so that book examples and bug reports become test fixtures.

::

    lords-of-vegas 2024
    seats: black blue green red
    turn: black
    money: black=29 blue=10 green=20 red=5
    score: black=0 blue=0 green=8 red=0
    lots: A5=black D2=black
    tiles: A1=tivoli:black6 A2=tivoli^2:black3 B5=tivoli:-
    deck: D8 A3 GO
    discard: B1 C3
    drawn: -
    turn-state: gambles=0 acts=0 reorganized=C3,C6
    pending: place:red:C3,C6 move:red:die:A5 layoff:blue:B4:5:red
    prefs: red:place=ask,layoff=always
    over: -
    seed: 00
    n: 0

A key may repeat (long ``tiles:`` lines split in two): the values are joined.
``to_position`` writes every line; ``from_position`` needs only ``seats`` and fills the rest
with defaults (no money, no points, nothing on the board). Cards listed in neither ``deck``
nor ``discard`` (nor ``drawn``) go under the deck in board order, the Game Over card last,
so a test can name just the next cards to draw.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import State

from .board import CARDS, COMPANY_ALIASES, EDITIONS, GAME_OVER, LOTS
from .state import OWNER, PIP, empty_state


class PositionError(ValueError):
    """Text that is not a valid position; the message names the line and the reason."""


def to_position(state: State) -> str:
    colours = state["colours"]

    def seats(values: list[int]) -> str:
        return " ".join(f"{colours[s]}={v}" for s, v in enumerate(values))

    lines = [
        f"lords-of-vegas {state['edition']}",
        f"seats: {' '.join(colours)}",
        f"turn: {colours[state['turn']]}",
        f"money: {seats(state['money'])}",
        f"score: {seats(state['score'])}",
        "lots: " + " ".join(f"{lot}={colours[s]}" for lot, s in _ordered(state["markers"])),
        "tiles: " + " ".join(_tile(state, lot, tile) for lot, tile in _ordered(state["tiles"])),
        f"deck: {' '.join(state['deck'])}",
        f"discard: {' '.join(state['discard'])}",
        f"drawn: {state['drawn'] or '-'}",
        f"turn-state: gambles={state['gambles']} acts={state['acts']} "
        f"reorganized={','.join(state['reorged']) or '-'}",
        "pending: " + " ".join(_decision(state, d) for d in state["pending"]),
        "prefs: "
        + " ".join(_prefs(state, s) for s in range(state["players"]) if state["prefs"][s]),
        f"over: {state['over'] or '-'}",
        f"seed: {state['seed']}",
        f"n: {state['n']}",
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _ordered(mapping: dict[str, Any]) -> list[tuple[str, Any]]:
    order = {lot: i for i, lot in enumerate(LOTS)}
    return sorted(mapping.items(), key=lambda item: order[item[0]])


def _tile(state: State, lot: str, tile: list[Any]) -> str:
    height = f"^{tile[1]}" if tile[1] != 1 else ""
    die = "-" if tile[OWNER] is None else f"{state['colours'][tile[OWNER]]}{tile[PIP]}"
    return f"{lot}={tile[0]}{height}:{die}"


def _decision(state: State, d: dict[str, Any]) -> str:
    who = state["colours"][d["seat"]]
    if d["kind"] == "move":
        return f"move:{who}:{d['piece']}:{d['lot']}"
    if d["kind"] == "place":
        return f"place:{who}:{','.join(d['lots'])}"
    return f"layoff:{who}:{d['lot']}:{d['amount']}:{state['colours'][d['gambler']]}"


def _prefs(state: State, seat: int) -> str:
    items = ",".join(f"{k}={v}" for k, v in sorted(state["prefs"][seat].items()))
    return f"{state['colours'][seat]}:{items}"


# -- reading ------------------------------------------------------------------------------------


def from_position(text: str) -> State:
    fields = _fields(text)
    edition = fields.pop("edition", "2024")
    if edition not in EDITIONS:
        raise PositionError(f"unknown edition {edition!r}")
    if "seats" not in fields:
        raise PositionError("a position needs a 'seats:' line (the colours in seat order)")
    colours = fields.pop("seats").split()
    state = empty_state(edition, colours, fields.pop("seed", "00"))
    reader = _Reader(state)
    for key, value in fields.items():
        handler = getattr(reader, "read_" + key.replace("-", "_"), None)
        if handler is None:
            raise PositionError(f"unknown line {key!r}")
        handler(value)
    reader.complete_deck()
    return state


def _fields(text: str) -> dict[str, str]:
    fields = {}
    for number, raw in enumerate(text.strip().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("lords-of-vegas"):
            fields["edition"] = ([*line.split(), "2024"])[1]
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise PositionError(f"line {number} ({line!r}) is not 'key: value'")
        key = key.strip().lower()
        fields[key] = f"{fields[key]} {value.strip()}" if key in fields else value.strip()
    return fields


class _Reader:
    """One ``read_<key>`` method per line of the format."""

    def __init__(self, state: State) -> None:
        self.state = state

    def seat(self, colour: str) -> int:
        try:
            return int(self.state["colours"].index(colour.lower()))
        except ValueError:
            raise PositionError(f"{colour!r} is not one of the seats") from None

    def pairs(self, value: str) -> list[tuple[str, str]]:
        out = []
        for token in value.split():
            key, sep, rest = token.partition("=")
            if not sep:
                raise PositionError(f"{token!r} is not 'key=value'")
            out.append((key, rest))
        return out

    def lot(self, name: str) -> str:
        if name.upper() not in LOTS:
            raise PositionError(f"{name!r} is not a lot")
        return name.upper()

    def read_turn(self, value: str) -> None:
        self.state["turn"] = self.seat(value)

    def read_money(self, value: str) -> None:
        for colour, amount in self.pairs(value):
            self.state["money"][self.seat(colour)] = int(amount)

    def read_score(self, value: str) -> None:
        for colour, points in self.pairs(value):
            self.state["score"][self.seat(colour)] = int(points)

    def read_lots(self, value: str) -> None:
        for lot, colour in self.pairs(value):
            self.state["markers"][self.lot(lot)] = self.seat(colour)

    def read_tiles(self, value: str) -> None:
        for lot, spec in self.pairs(value):
            name, _, die = spec.partition(":")
            name, _, height = name.partition("^")
            company = COMPANY_ALIASES.get(name.lower())
            if company is None:
                raise PositionError(f"{name!r} is not a company")
            tile: list[Any] = [company, int(height or 1), None, None]
            if die not in ("", "-"):
                tile[OWNER], tile[PIP] = self.seat(die[:-1]), int(die[-1])
            self.state["tiles"][self.lot(lot)] = tile

    def cards(self, value: str) -> list[str]:
        cards = [c.upper() for c in value.split()]
        for card in cards:
            if card not in CARDS:
                raise PositionError(f"{card!r} is not a card")
        return cards

    def read_deck(self, value: str) -> None:
        self.state["deck"] = self.cards(value)

    def read_discard(self, value: str) -> None:
        self.state["discard"] = self.cards(value)

    def read_drawn(self, value: str) -> None:
        self.state["drawn"] = None if value in ("", "-") else self.cards(value)[0]

    def read_turn_state(self, value: str) -> None:
        for key, item in self.pairs(value):
            if key == "reorganized":
                self.state["reorged"] = (
                    [] if item == "-" else [self.lot(x) for x in item.split(",")]
                )
            elif key in ("gambles", "acts"):
                self.state[key] = int(item)
            else:
                raise PositionError(f"unknown turn-state {key!r}")

    def read_pending(self, value: str) -> None:
        for token in value.split():
            kind, colour, *rest = token.split(":")
            seat = self.seat(colour)
            if kind == "move":
                decision = {"kind": "move", "seat": seat, "piece": rest[0], "lot": rest[1]}
            elif kind == "place":
                decision = {"kind": "place", "seat": seat, "lots": rest[0].split(",")}
            elif kind == "layoff":
                decision = {
                    "kind": "layoff",
                    "seat": seat,
                    "lot": rest[0],
                    "amount": int(rest[1]),
                    "gambler": self.seat(rest[2]),
                }
            else:
                raise PositionError(f"unknown pending decision {token!r}")
            self.state["pending"].append(decision)

    def read_prefs(self, value: str) -> None:
        for token in value.split():
            colour, _, items = token.partition(":")
            seat = self.seat(colour)
            for item in items.split(","):
                topic, _, choice = item.partition("=")
                self.state["prefs"][seat][topic] = choice

    def read_over(self, value: str) -> None:
        self.state["over"] = None if value in ("", "-") else value

    def read_n(self, value: str) -> None:
        self.state["n"] = int(value)

    def complete_deck(self) -> None:
        """Cards the position does not place go under the deck, the Game Over card last."""
        state = self.state
        placed = {*state["deck"], *state["discard"], state["drawn"]}
        rest = [card for card in LOTS if card not in placed]
        state["deck"] += rest
        if GAME_OVER not in placed:
            state["deck"].append(GAME_OVER)
