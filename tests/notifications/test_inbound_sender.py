"""The sender is read strictly (QA, M4): a From that holds several addresses, or one that
only looks like the player's, is not the player's. Such a message is dropped without an
answer, as for a stranger, and nothing is played; a From the email package cannot parse
does not crash the door."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Move
from tests.notifications.conftest import deliver, reply_to, unanswered

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "sender",
    [
        "{player} <eve@evil.org>",
        "{player}, eve@evil.org",
        "Ada <{player}>, Eve <eve@evil.org>",
        "{player}@",
        "nobody@",
        "<>",
    ],
)
def test_a_from_that_is_not_one_valid_address_is_not_the_player(
    turn: Any, smtp: Any, sender: str
) -> None:
    game, message, command = turn
    raw = reply_to(message, command)
    written = f"From: Ada Player <{message['To']}>".encode()
    assert written in raw
    raw = raw.replace(written, f"From: {sender.format(player=message['To'])}".encode())
    unanswered(game, smtp, deliver(raw))


@pytest.mark.parametrize(
    "sender",
    [
        '"=?UTF-8?Q?J=C3=A9r=C3=B4me?=" <{player}>',  # an accented name, loosely encoded
        '"Ada, L." <{player}>',
    ],
)
def test_a_from_with_an_odd_but_sure_name_is_the_player(turn: Any, smtp: Any, sender: str) -> None:
    """Some clients write an accented name as encoded words inside quotes: the email
    package flags it, and the door took the player for a stranger (found by review)."""
    game, message, command = turn
    raw = reply_to(message, command)
    written = f"From: Ada Player <{message['To']}>".encode()
    raw = raw.replace(written, f"From: {sender.format(player=message['To'])}".encode())
    assert deliver(raw).startswith("played")
    assert Move.objects.filter(game=game, source="email").exists()
