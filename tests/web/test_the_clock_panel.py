"""The board page's clock as a player reads it: a time-bank game has no "Turn time" of
hours (the bank decides), the bank of the player the game waits on is what they have left
now, and a weekend that holds the clock says so.

Found by play-testing: a bank game showed "Turn time 72 hours"; the panel said "Cy 24.0
hours in the bank" for the whole turn; on a weekend nothing said the clock had stopped."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from games.models import Game
from tests.platform.helpers import seat_to_act
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
MONDAY = datetime(2026, 11, 2, 9, tzinfo=UTC)
FRIDAY = datetime(2026, 11, 6, 9, tzinfo=UTC)
BANK = {"kind": "bank", "bank_hours": 24, "increment_hours": 12, "cap_hours": 48}


def _part(client: Any, game: Game, start: str, end: str) -> str:
    """The text of the page between two of its ids' tags, as a reader sees it."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    found = re.search(rf"{start}.*?{end}", page, re.DOTALL)
    assert found, page
    return page_text(found.group(0))


def _clock(client: Any, game: Game) -> str:
    return _part(client, game, 'id="clock"', "</section>")


def _facts(client: Any, game: Game) -> str:
    return _part(client, game, '<dl class="facts">', "</dl>")


def test_a_bank_game_has_no_turn_time_of_hours(client: Any, make_game: Any, ada, bob) -> None:
    game = make_game(ada, bob, clock=BANK)  # (turn_hours: the default 72, unused by a bank)
    client.force_login(ada)
    facts = _facts(client, game)
    assert "Turn time time bank" in facts and "72 hours" not in facts, facts
    fixed = make_game(ada, bob, turn_hours=36)
    assert "Turn time 36 hours" in _facts(client, fixed)


def test_the_bank_of_the_player_waited_on_is_what_is_left_now(
    client: Any, make_game: Any, ada, bob
) -> None:
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = make_game(ada, bob, clock=BANK)
        waited = seat_to_act(game)
        other = game.seats.exclude(pk=waited.pk).get()
        clock.shift(5.5 * H)
        client.force_login(ada)
        said = _clock(client, game)
    assert f"{waited.name} 18.5 hours in the bank" in said, said
    assert f"{other.name} 24.0 hours in the bank" in said, said
    assert "weekend" not in said.split("in their time zone.")[-1]


def test_a_bank_past_its_time_is_empty_not_below(client: Any, make_game: Any, ada, bob) -> None:
    with time_machine.travel(MONDAY, tick=False) as clock:
        game = make_game(ada, bob, clock=BANK)
        waited = seat_to_act(game)
        clock.shift(30 * H)  # (the deadline passed; the sweep has not come yet)
        client.force_login(bob)
        said = _clock(client, game)
    assert f"{waited.name} 0.0 hours in the bank" in said, said


def test_a_weekend_that_holds_the_bank_says_so(client: Any, make_game: Any, ada, bob) -> None:
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = make_game(ada, bob, clock=BANK | {"weekend_pause": True})
        waited = seat_to_act(game)
        other = game.seats.exclude(pk=waited.pk).get()
        clock.shift(27 * H)  # Saturday noon in their zone (UTC): 15 hours ran on Friday
        client.force_login(ada)
        said = _clock(client, game)
    assert f"{waited.name} 9.0 hours in the bank — clock stopped for the weekend" in said, said
    assert f"{other.name} 24.0 hours in the bank" in said
    assert f"{other.name} 24.0 hours in the bank —" not in said  # (not waited on: no clock)


def test_a_weekend_that_holds_a_fixed_clock_says_so(client: Any, make_game: Any, ada, bob) -> None:
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = make_game(ada, bob, turn_hours=24, clock={"weekend_pause": True})
        waited = seat_to_act(game)
        client.force_login(ada)
        weekday = _clock(client, game)
        clock.shift(27 * H)
        client.force_login(bob)  # (another reader: the page is drawn anew)
        saturday = _clock(client, game)
    assert "stopped for the weekend" not in weekday, weekday
    assert f"{waited.name} clock stopped for the weekend" in saturday, saturday


def test_the_same_readers_page_follows_the_clock(client: Any, make_game: Any, ada, bob) -> None:
    with time_machine.travel(FRIDAY, tick=False) as clock:
        game = make_game(ada, bob, turn_hours=24, clock={"weekend_pause": True})
        waited = seat_to_act(game)
        client.force_login(ada)
        _clock(client, game)
        clock.shift(27 * H)
        saturday = _clock(client, game)
    assert f"{waited.name} clock stopped for the weekend" in saturday, saturday
