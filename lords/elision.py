"""French elision before a name: "le tour de Ada" is written "le tour d'Ada".

A translated sentence holds a player's name as a parameter ("Début du tour de
%(player)s."), and the catalog cannot know whether the name will start with a vowel. So the
sentence is fitted to its words just before they are put in: where a name that starts with
a vowel follows "de" or "que", the word is elided. Only names are looked at (a lot such as
"A5" or a number is read as it is written), and not "h" or "y", whose elision depends on
the word ("d'Hélène" but "de Hugo" for some): a rule the site cannot know for every name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language

NAMES = ("player", "name", "who", "proposer", "boss", "owner")
"""The parameters that hold a person's name, in every catalog."""


def starts_with_vowel(word: str) -> bool:
    first = unicodedata.normalize("NFD", word.lstrip())[:1].lower()
    return first in ("a", "e", "i", "o", "u")


@lru_cache(maxsize=64)
def _before(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b([DdQq]u?e) (%\({name}\)s)")


def _elide(match: re.Match[str]) -> str:
    return f"{match.group(1)[:-1]}'{match.group(2)}"


def fit(template: str, params: Mapping[str, Any]) -> str:
    """``template`` (a translated sentence) with "de" and "que" elided before the names
    of ``params`` that start with a vowel, in French; as it is in any other language."""
    if not (get_language() or "").startswith("fr") or "%(" not in template:
        return template
    for key in NAMES:
        value = params.get(key)
        if isinstance(value, str) and starts_with_vowel(value):
            template = _before(key).sub(_elide, template)
    return template
