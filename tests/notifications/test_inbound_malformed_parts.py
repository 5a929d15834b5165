"""Replies whose parts a mail client wrote badly (QA's real-world email, H1 and M3): a
broken ``<![`` section in an HTML-only reply, a charset no codec decodes, a byte-order
mark or zero-width characters around a command. The player gets the answer their command
calls for, as if the part were clean; the door never crashes on them."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest

from games.models import Move
from tests.notifications.conftest import reply_to, text_part
from tests.notifications.test_inbound_hardening import DOORS, _answer

pytestmark = pytest.mark.django_db


def _played(game: Any, command: str, smtp: Any) -> EmailMessage:
    assert Move.objects.get(game=game, source="email").text == command
    answer = _answer(smtp)
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(answer)
    return answer


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("junk", ["<![ 12 ]>", "<![foo[ x ]]>", "<![ 12"])
def test_an_html_reply_with_a_bad_marked_section_is_played(
    client: Any, turn: Any, smtp: Any, door: str, junk: str
) -> None:
    game, message, command = turn
    DOORS[door](client, reply_to(message, f"{command}{junk}", html=True))
    _played(game, command, smtp)


@pytest.mark.parametrize("charset", ["idna", "undefined"])
def test_a_charset_no_codec_decodes_is_read_as_utf8(
    client: Any, turn: Any, smtp: Any, charset: str
) -> None:
    game, message, command = turn
    raw = reply_to(message, command).replace(b'charset="utf-8"', f"charset={charset}".encode())
    assert f"charset={charset}".encode() in raw
    DOORS["pipe"](client, raw)
    _played(game, command, smtp)


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize(
    ("before", "after"), [("\ufeff", ""), ("", "\u200b"), ("\u200d", "\u200c")]
)
def test_invisible_characters_around_a_command_are_dropped(
    client: Any, turn: Any, smtp: Any, door: str, before: str, after: str
) -> None:
    game, message, command = turn
    DOORS[door](client, reply_to(message, f"{before}{command}{after}"))
    _played(game, command, smtp)
