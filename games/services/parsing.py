"""A submission's text or JSON turned into the engine's commands: split on ``;`` and new
lines, at most :data:`MAX_COMMANDS_PER_SUBMISSION`, a refusal naming the command that failed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engines.base import Command, GameEngine, IllegalCommand
from games.engines.base import MalformedCommand as EngineMalformed
from games.services.errors import (
    InvalidRequest,
    MalformedCommand,
)

MAX_COMMANDS_PER_SUBMISSION = 50

_SEPARATORS = re.compile(r"[;\r\n]+")


def split_text(text: str) -> list[str]:
    """Commands separated by ``;`` or new lines, blanks dropped."""
    return [part.strip() for part in _SEPARATORS.split(text) if part.strip()]


def parse_commands(
    engine: GameEngine,
    *,
    text: str | None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    options: Mapping[str, Any] | None = None,
) -> list[Command]:
    """The commands of a submission, from text or JSON (one object or a list of them).
    ``options``: the game's, passed to the engine's parse so that its refusals speak of
    this game (an unknown verb's lists this edition's verbs only)."""
    if (text is None) == (command is None):
        raise InvalidRequest(_("give the command either as text or as JSON (exactly one)"))
    raw: list[Any]
    if text is not None:
        if not isinstance(text, str):
            raise MalformedCommand(_("the command text must be a string"))
        raw = split_text(text)
    else:
        raw = [command] if isinstance(command, Mapping) else list(command or [])
    if not raw:
        raise MalformedCommand(_("the submission holds no command"), command=text or command)
    if len(raw) > MAX_COMMANDS_PER_SUBMISSION:
        raise InvalidRequest(
            _("%(count)s commands in one submission: send at most %(most)s at a time")
            % {"count": len(raw), "most": MAX_COMMANDS_PER_SUBMISSION}
        )
    commands = []
    for index, item in enumerate(raw, start=1):
        try:
            if isinstance(item, str):
                commands.append(engine.parse(item, options=options))
            elif isinstance(item, Mapping):
                commands.append(engine.command_from_json(item))
            else:
                raise EngineMalformed(_("%(item)r is not a command object") % {"item": item})
        except IllegalCommand as exc:
            raise MalformedCommand(
                numbered(index, len(raw), str(exc)), command=item, index=index
            ) from exc
    return commands


def numbered(index: int, total: int, message: str) -> str:
    """The refusal of one command of several says which one it was."""
    if total == 1:
        return message
    return _("command %(index)s of %(total)s: %(message)s") % {
        "index": index,
        "total": total,
        "message": message,
    }


def allowed_out_of_turn(command: Command) -> bool:
    """Commands a seated player may send while the game does not wait on them: those the
    engine marks ``anytime = True`` (standing preferences, say). The engine still judges
    them."""
    return getattr(command, "anytime", False) is True
