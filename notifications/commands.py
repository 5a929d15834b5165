"""The commands an email lists: one line per verb, in the reader's words.

A turn email listed every legal command in the canonical English notation, cut after 15:
a French player read ``gamble B2 1`` ... ``gamble B2 10`` and never saw ``end`` (found by
play-testing). Each verb now gets one line, its choices summed up ("construire F5|C2
albion|sphinx", "parier B2 1-10, D5 1-4"), written as the reader writes them
(``GameEngine.format_in``: the French and Italian verbs the parser accepts).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import zip_longest
from typing import Any

from django.utils import translation

from games.engines.base import GameEngine

HEADLESS = frozenset({"place"})
"""Verbs whose first argument is not what the other choices depend on (Lords of Vegas's
``place D1=6 D5=4``: every lot takes one of the values)."""
_SETTING = re.compile(r"^([A-Z]\d+)=(\d+)$")


def shown_commands(engine: GameEngine, legal: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The email's commands (one line per verb, in the active language's words), an
    example to copy (the first legal command, as the reader writes it), and whether a line
    sums choices up (the email then says how to read "|" and "1-10")."""
    language = translation.get_language() or "en"
    by_verb: dict[str, list[list[str]]] = {}
    for entry in legal:
        verb = str(entry["text"]).split(" ", 1)[0]
        command = engine.command_from_json(entry["command"])
        by_verb.setdefault(verb, []).append(engine.format_in(command, language).split(" "))
    lines = [_line(verb, forms) for verb, forms in by_verb.items()]
    example = next(iter(by_verb.values()))[0] if by_verb else []
    return {
        "commands": lines,
        "example": " ".join(example),
        "summed_up": any(len(forms) > 1 for forms in by_verb.values()),
    }


def _line(verb: str, forms: list[list[str]]) -> str:
    """One verb's commands as one line: its word, then, per first argument (a lot), the
    choices that follow; lots with the same choices share them ("F5|C2 albion|sphinx")."""
    word = forms[0][0]
    if len(forms) == 1:
        return " ".join(forms[0])
    if verb in HEADLESS:
        return f"{word} {_columns([form[1:] for form in forms])}"
    tails: dict[str, list[list[str]]] = {}
    for form in forms:
        tails.setdefault(form[1] if len(form) > 1 else "", []).append(form[2:])
    heads: dict[str, list[str]] = {}
    for head, rest in tails.items():
        heads.setdefault(_columns(rest), []).append(head)
    parts = [" ".join(w for w in ("|".join(h), rest) if w) for rest, h in heads.items()]
    return f"{word} {', '.join(parts)}"


def _columns(rows: list[list[str]]) -> str:
    """The choices word by word: each position's words joined by "|" (in their order),
    amounts as a range."""
    return " ".join(
        _choices([word for word in column if word is not None]) for column in zip_longest(*rows)
    ).strip()


def _choices(words: list[str]) -> str:
    """One position's words: "1-10" for a run of three or more amounts, "D1=6|4" for one
    lot's die values, else the words joined by "|"."""
    unique = list(dict.fromkeys(words))
    if len(unique) >= 3 and all(w.isdigit() for w in unique):
        numbers = sorted(int(w) for w in unique)
        if numbers == list(range(numbers[0], numbers[-1] + 1)):
            return f"{numbers[0]}-{numbers[-1]}"
    settings = [_SETTING.match(w) for w in unique]
    lots = {m.group(1) for m in settings if m is not None}
    if len(unique) > 1 and len(lots) == 1 and all(settings):
        return f"{lots.pop()}=" + "|".join(m.group(2) for m in settings if m is not None)
    return "|".join(unique)
