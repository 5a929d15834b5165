"""A 'your turn' email composed after the wait began (a drain that caught up late, a
resend composed again) says the player's bank as it is when it is written: what is left
now, as the board page says it, not the bank the wait started with."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from notifications.services import notify_game
from tests.notifications.conftest import html_part, text_part

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 11, 2, 9, tzinfo=UTC)
BANK = {"kind": "bank", "bank_hours": 24, "increment_hours": 12, "cap_hours": 48}


def test_your_turn_written_hours_into_the_wait_says_the_bank_left(make_game, ada, bob, smtp):
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = make_game(ada, bob, clock=BANK)
        clock.shift(timedelta(hours=5, minutes=30))
        assert notify_game(game_id=game.pk) == 1
    [message] = smtp.wait_for(1)
    for part in (text_part(message), html_part(message)):
        assert "Your bank: 18.5 hours." in part, part
