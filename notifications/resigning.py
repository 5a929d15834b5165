"""Resigning by email reply: a line that cannot be typed by accident. The reply's first line
must read ``resign game <the game's number>``; anything else that starts with "resign" is
refused with the exact line to write, and nothing changes."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

RESIGN = re.compile(r"^resign\b(?:\s+game\s+#?(\d+))?", re.IGNORECASE)


def resignation(lines: list[str], game_id: int) -> str | None:
    """None: the reply does not ask to resign (its lines are commands); "": it does, as
    ``resign game <game_id>`` on its first line (a signature below is ignored); else the
    refusal to answer (a bare "resign", another game's number, words after the number), in
    the active language (the player's: ``notifications.inbound`` calls this in it)."""
    first = next((line.strip() for line in lines if line.strip()), "")
    asked = RESIGN.match(first)
    if asked is None:
        return None
    if asked.group(1) == str(game_id) and first[asked.end() :].strip() == "":
        return ""
    return _(
        "to resign from game #%(game)s, reply with this line on top: resign game %(game)s "
        "(a bot then plays your seat to the end and you rank last); nothing was changed"
    ) % {"game": game_id}
