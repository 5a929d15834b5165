"""Vegas has one command: place every die of one rolled number on the casino of that number.

The text notation is the number with an optional verb, so an email reply can be as short as
``4``. The French and Italian verbs of the rule books are accepted too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import JSON, MalformedCommand

CASINOS = (1, 2, 3, 4, 5, 6)

VERBS = ("place", "placer", "piazza", "put")
"""English, French, Italian; ``put`` because people write it."""

_TEXT = re.compile(r"^\s*(?:(?P<verb>[^\W\d_]+)\s+)?(?P<number>\S+)\s*$")


@dataclass(frozen=True)
class Place:
    """Place all the dice showing ``number`` (own and white) on casino ``number``."""

    number: int

    def to_json(self) -> JSON:
        return {"type": "place", "number": self.number}

    def __str__(self) -> str:
        return format_command(self)


def _casino_number(raw: object, source: str) -> int:
    """The casino a player named; the message repeats what they wrote."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise MalformedCommand(f"{source!r}: the casino must be a number from 1 to 6")
    if isinstance(raw, str):
        if not (raw.isascii() and raw.isdigit()):
            raise MalformedCommand(f"{source!r}: {raw!r} is not a casino (say a number 1 to 6)")
        raw = int(raw)
    if raw not in CASINOS:
        raise MalformedCommand(f"{source!r}: there is no casino {raw}; they are numbered 1 to 6")
    return raw


def parse_command(text: str) -> Place:
    """``place 4``, ``4``, ``placer 4``, ``piazza 4`` (any case) -> ``Place(4)``."""
    match = _TEXT.match(text)
    if match is None:
        raise MalformedCommand(f"{text!r}: write the number you place, e.g. 'place 4'")
    verb = (match["verb"] or "place").lower()
    if verb not in VERBS:
        raise MalformedCommand(f"{text!r}: unknown command {verb!r}; write e.g. 'place 4'")
    return Place(_casino_number(match["number"], text))


def format_command(command: Place) -> str:
    """The canonical text form."""
    return f"place {command.number}"


def command_from_json(data: Mapping[str, Any]) -> Place:
    """``{"type": "place", "number": 4}`` -> ``Place(4)``."""
    if not isinstance(data, Mapping):
        raise MalformedCommand(f"{data!r}: a command is a JSON object")
    if data.get("type") != "place":
        raise MalformedCommand(f"{dict(data)!r}: the only Vegas command is type 'place'")
    if set(data) - {"type", "number"}:
        extra = ", ".join(sorted(map(str, set(data) - {"type", "number"})))
        raise MalformedCommand(f"{dict(data)!r}: unexpected field(s) {extra}")
    if "number" not in data:
        raise MalformedCommand(f"{dict(data)!r}: 'number' (the casino, 1 to 6) is missing")
    return Place(_casino_number(data["number"], repr(dict(data))))
