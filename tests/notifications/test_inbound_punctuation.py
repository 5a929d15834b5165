"""A command written as a sentence (QA, low): "End." or "place 4." is played, as the player
meant; a full stop on a line that is no command changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Move
from tests.notifications.conftest import deliver, reply_to, text_part
from tests.notifications.test_inbound_hardening import _answer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("end", [".", "!", " ."])
def test_a_full_stop_after_a_command_is_not_read(turn: Any, smtp: Any, end: str) -> None:
    game, message, command = turn
    printed = deliver(reply_to(message, f"{command}{end}\nThanks."))
    assert printed.startswith("played"), printed
    assert Move.objects.get(game=game, source="email").text == command
    text = text_part(_answer(smtp))
    assert f"Played in Vegas #{game.pk}: {command}" in text
    assert "Lines ignored (after your commands):\n    Thanks.\n" in text
