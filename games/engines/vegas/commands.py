"""Vegas has one command: place every die of one rolled number on the casino of that number.

The text notation is the number with an optional verb, so an email reply can be as short as
``4``. The French and Italian verbs of the rule books are accepted too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import JSON, MalformedCommand, refuse_other_fields
from games.engines.text import _

CASINOS = (1, 2, 3, 4, 5, 6)

VERBS = ("place", "placer", "piazza", "put")
"""English, French, Italian; ``put`` because people write it."""
LOCAL_VERBS = {"fr": "placer", "it": "piazza"}
"""The verb a French or Italian player writes (``GameEngine.format_in``)."""

_TEXT = re.compile(r"^\s*(?:(?P<verb>[^\W\d_]+)\s+)?(?P<number>\S+)\s*$")


@dataclass(frozen=True)
class Place:
    """Place all the dice showing ``number`` (own and white) on casino ``number``."""

    number: int

    def to_json(self) -> JSON:
        return {"type": "place", "number": self.number}

    def __str__(self) -> str:
        return format_command(self)


EXAMPLE = "'place 4'"
"""The example a refusal gives: notation, the same in every language (a parameter, so that a
translation cannot change it)."""


def _casino_number(raw: object, source: str) -> int:
    """The casino a player named; the message repeats what they wrote."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise MalformedCommand(
            _("%(text)s: the casino must be a number from 1 to 6", text=repr(source))
        )
    if isinstance(raw, str):
        if not (raw.isascii() and raw.isdigit()):
            raise MalformedCommand(
                _(
                    "%(text)s: %(number)s is not a casino (say a number 1 to 6)",
                    text=repr(source),
                    number=repr(raw),
                )
            )
        raw = int(raw)
    if raw not in CASINOS:
        raise MalformedCommand(
            _(
                "%(text)s: there is no casino %(number)s; they are numbered 1 to 6",
                text=repr(source),
                number=raw,
            )
        )
    return raw


def parse_command(text: str) -> Place:
    """``place 4``, ``4``, ``placer 4``, ``piazza 4`` (any case) -> ``Place(4)``."""
    match = _TEXT.match(text)
    if match is None:
        raise MalformedCommand(
            _(
                "%(text)s: write the number you place, e.g. %(example)s",
                text=repr(text),
                example=EXAMPLE,
            )
        )
    verb = (match["verb"] or "place").lower()
    if verb not in VERBS:
        raise MalformedCommand(
            _(
                "%(text)s: unknown command %(verb)s; write e.g. %(example)s",
                text=repr(text),
                verb=repr(verb),
                example=EXAMPLE,
            )
        )
    return Place(_casino_number(match["number"], text))


def format_command(command: Place) -> str:
    """The canonical text form."""
    return f"place {command.number}"


def command_from_json(data: Mapping[str, Any]) -> Place:
    """``{"type": "place", "number": 4}`` -> ``Place(4)``."""
    if not isinstance(data, Mapping):
        raise MalformedCommand(_("%(data)s: a command is a JSON object", data=repr(data)))
    shown = repr(dict(data))
    if data.get("type") != "place":
        raise MalformedCommand(
            _("%(data)s: the only Vegas command is type %(type)s", data=shown, type="'place'")
        )
    refuse_other_fields(data, {"type", "number"})
    if "number" not in data:
        raise MalformedCommand(
            _("%(data)s: %(field)s (the casino, 1 to 6) is missing", data=shown, field="'number'")
        )
    number = data["number"]
    if isinstance(number, str):
        # Digits are the text door's (``place 4``, an email's ``4``); in JSON a number is a
        # JSON integer, as docs/api.md says (``"1"`` was played: decision 0039).
        raise MalformedCommand(
            _(
                '%(data)s: %(field)s is a JSON integer from 1 to 6, such as 4 (not "4")',
                data=shown,
                field="'number'",
            )
        )
    return Place(_casino_number(number, shown))
