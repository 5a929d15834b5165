"""The 'your turn' email says the game's clock: the player's own time bank."""

from __future__ import annotations

import pytest

from notifications.services import notify_game
from tests.notifications.conftest import html_part, text_part

pytestmark = pytest.mark.django_db


def test_your_turn_tells_the_player_their_time_bank(make_game, ada, bob, smtp):
    bank = {"kind": "bank", "bank_hours": 60, "increment_hours": 6, "cap_hours": 90}
    game = make_game(ada, bob, clock=bank | {"weekend_pause": True})
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    sentence = "Time bank: 60 hours to start, 6 more for each turn, at most 90."
    for part in (text_part(message), html_part(message)):
        assert sentence in part and "Your bank: 60.0 hours." in part
        assert "The clock stops over your weekend." in part


def test_a_fixed_clock_says_the_time_per_turn(make_game, ada, bob, smtp):
    game = make_game(ada, bob, turn_hours=36)
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    assert "Fixed time: 36 hours per turn." in text_part(message)
