"""The players' pause on the game page (issue 13, docs/decisions/0018-clocks-and-channels.md):
ask for it, take the vote back, the pause once everyone asked, its end; a stranger is
refused and changes nothing. Plain forms: no script, no inline style (the strict CSP)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from games.models import Game
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 2, 9, tzinfo=UTC)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _clock(response: Any) -> str:
    """The clock section of the page, as HTML."""
    found = re.search(r'<section class="clock".*?</section>', response.content.decode(), re.S)
    assert found, response.content.decode()
    return found.group(0)


def test_players_pause_the_game_from_the_page_and_any_of_them_ends_it(make_game, ada, bob):
    with time_machine.travel(START, tick=False) as clock:
        game = make_game(ada, bob, turn_hours=24)
        ada_web, bob_web = _client(ada), _client(bob)
        page = ada_web.get(f"/games/{game.pk}/")
        section = _clock(page)
        assert "Ask for a pause" in page_text(section)
        assert "<script" not in section and "style=" not in section
        assert "'unsafe-inline'" not in page.headers["Content-Security-Policy"]

        asked = page_text(ada_web.post(f"/games/{game.pk}/pause/", follow=True).content.decode())
        assert "You asked for a pause: it starts when every player has." in asked
        assert "1 player asks for a pause" in asked and "Take back my pause vote" in asked
        taken_back = ada_web.post(f"/games/{game.pk}/pause/withdraw/", follow=True)
        assert "You no longer ask for a pause." in page_text(taken_back.content.decode())
        game.refresh_from_db()
        assert game.pause_votes == [] and game.paused_at is None

        ada_web.post(f"/games/{game.pk}/pause/")
        clock.shift(timedelta(hours=2))
        paused = page_text(bob_web.post(f"/games/{game.pk}/pause/", follow=True).content.decode())
        assert "Every player asked: the game is paused." in paused
        assert "End the pause" in paused and "Ask for a pause" not in paused
        assert "Status active · paused: no deadline runs" in paused  # (it said "active")
        game.refresh_from_db()
        assert game.paused_at is not None and game.deadline is None

        clock.shift(timedelta(hours=10))
        ended = page_text(
            ada_web.post(f"/games/{game.pk}/pause/end/", follow=True).content.decode()
        )
        assert "The pause is over: the clock runs again." in ended
        game.refresh_from_db()
        assert game.paused_at is None
        assert game.deadline == START + timedelta(hours=24 + 10)  # the paused time is given back


def test_a_stranger_may_not_vote_and_a_second_end_is_refused(make_game, ada, bob, cy):
    game = make_game(ada, bob)
    section = _clock(_client(cy).get(f"/games/{game.pk}/"))
    assert "Ask for a pause" not in page_text(section)
    refused = _client(cy).post(f"/games/{game.pk}/pause/", follow=True)
    assert f"You are not seated in game #{game.pk}" in page_text(refused.content.decode())
    game.refresh_from_db()
    assert game.pause_votes == [] and game.paused_at is None
    not_paused = _client(ada).post(f"/games/{game.pk}/pause/end/", follow=True)
    assert f"Game #{game.pk} is not paused by its players" in page_text(not_paused.content.decode())
    game.refresh_from_db()
    assert game.paused_at is None


def test_the_pause_needs_a_post(make_game, ada, bob):
    game = make_game(ada, bob)
    assert _client(ada).get(f"/games/{game.pk}/pause/").status_code == 405
    assert Game.objects.get(pk=game.pk).pause_votes == []
