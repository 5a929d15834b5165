"""The bots offered on the web, each with a line on how it plays (the engines name their
bots; how each plays is said here, in the reader's language)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.models import BOT_NAMES

HOW_THEY_PLAY: dict[str, Any] = {
    "greedy": _("Plays the move that looks best right now; never plans ahead."),
    "random": _("Plays any legal move at random: an easy opponent."),
}
"""By bot name: one line on how it plays."""


def described_bots(names: Iterable[str]) -> list[dict[str, Any]]:
    """The bots an engine has, each with its line (its name alone when it has none)."""
    return [
        {"name": name, "label": BOT_NAMES.get(name, name), "how": HOW_THEY_PLAY.get(name, "")}
        for name in names
    ]
