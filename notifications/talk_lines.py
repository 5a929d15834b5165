"""Table talk in an email reply (issue 11): the lines of a reply that are messages, not
commands, and posting them.

A message line starts with a word and a colon, which no game's notation uses (its commands
have no colon), so a message is never mistaken for a command nor a command for a message:

- ``say: <text>`` (French ``dis:``/``dire:``, Italian ``di:``/``dì:``): to the table;
- ``to <name>: <text>`` (French ``à <name>:``, Italian ``a <name>:``; the accent optional):
  privately to one player, named by their name or their seat's colour.

Quoting (``>``) is stripped before (``notifications.quotes``): a quoted message is never
posted again. Each line is one message; a retried delivery posts it once (its key is the
Message-ID and the line's number). See docs/notation.md, "Talking at the table".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.text import Truncator
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.models import ChatMessage, Seat
from games.services import talk
from games.services.errors import ServiceError

LINE_SHOWN = 200  # characters of a message line an answer quotes back
_SAY = re.compile(r"^\s*(?:say|dis|dire|di|dì)\s*:\s*(?P<text>.*)$", re.IGNORECASE)
_TO = re.compile(r"^\s*(?:to|à|a)\s+(?P<name>[^:]{1,60}?)\s*:\s*(?P<text>.*)$", re.IGNORECASE)

WORDS = {
    "en": {"say": "say:", "to": "to NAME:"},
    "fr": {"say": "dis\N{NO-BREAK SPACE}:", "to": "à NOM\N{NO-BREAK SPACE}:"},
    "it": {"say": "di:", "to": "a NOME:"},
}
"""How the emails show a message line's start in each language (read by ``_SAY`` and
``_TO``, like the others' words: a player writes theirs, or the English ones)."""


def words() -> dict[str, str]:
    """The message lines' words in the active language (English for any other)."""
    return WORDS.get((get_language() or "en")[:2], WORDS["en"])


@dataclass(frozen=True)
class Line:
    """A message line: ``to`` is the name as written ("" for the table)."""

    text: str
    to: str = ""
    raw: str = ""


@dataclass
class Talk:
    """What a reply said: the messages posted (as their lines), the refused ones with why."""

    posted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.posted or self.refused)


def split(lines: list[str]) -> tuple[list[Line], list[str]]:
    """The message lines of a reply's own lines, and the other lines (commands, greetings,
    blanks) in their order."""
    said: list[Line] = []
    rest: list[str] = []
    for line in lines:
        found = _SAY.match(line)
        if found is not None:
            said.append(Line(found["text"].strip(), raw=line.strip()))
            continue
        found = _TO.match(line)
        if found is not None:
            said.append(Line(found["text"].strip(), to=found["name"].strip(), raw=line.strip()))
            continue
        rest.append(line)
    return said, rest


def post(seat: Seat, lines: list[Line], key: str) -> Talk:
    """Post each message line for ``seat`` (in the player's language: the refusals are
    theirs); the line's number in the reply keys it, so a redelivery posts nothing new.

    At most ``talk.RATE`` lines are tried, as many as the table takes from a player in a
    minute: the others are counted in one refusal, not tried one by one (3,000 lines of a
    reply were 3,000 refusals, each quoting its line whole: a 31 MB answer). A refusal
    quotes its line cut at ``LINE_SHOWN`` characters."""
    done = Talk()
    for number, line in enumerate(lines[: talk.RATE]):
        to = None
        if line.to:
            recipient = talk.seat_named(seat.game, line.to)
            if recipient is None:
                done.refused.append(
                    _("%(line)s: no player of game #%(game)s is called %(name)s")
                    % {"line": _shown(line.raw), "game": seat.game_id, "name": line.to}
                )
                continue
            to = recipient.order
        try:
            talk.say(
                game=seat.game,
                user=seat.user,
                text=line.text,
                to=to,
                source=ChatMessage.Source.EMAIL,
                key=f"{key[:180]}#{number}",
            )
        except ServiceError as exc:
            done.refused.append(f"{_shown(line.raw)}: {exc.message}")
            continue
        done.posted.append(_shown(line.raw))
    more = len(lines) - talk.RATE
    if more > 0:
        done.refused.append(
            ngettext(
                "…and %(n)s more message, not posted: a reply posts at most %(most)s",
                "…and %(n)s more messages, not posted: a reply posts at most %(most)s",
                more,
            )
            % {"n": more, "most": talk.RATE}
        )
    return done


def _shown(raw: str) -> str:
    """A line as an answer quotes it (cut, as the answer cuts the player's other lines)."""
    return Truncator(raw).chars(LINE_SHOWN)
