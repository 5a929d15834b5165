"""The clock at the doors: chosen at create on the web and in the API (checked, with a
line on each option), shown on the game page and in the game's API answer; the players'
pause through the API."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from tests.api.helpers import body, make_player
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def test_the_web_form_creates_a_time_bank_game_and_the_page_shows_it(client: Any, ada, bob):
    client.force_login(ada)
    form = {"game_type": "vegas", "edition": "standard", "seats": 2, "turn_hours": 48}
    bank = {"clock": "bank", "bank_hours": 48, "increment_hours": 12, "cap_hours": 96}
    client.post("/games/new/", {**form, **bank, "weekend_pause": "on"})
    game = Game.objects.get(created_by=ada)
    assert (game.clock, game.bank_hours, game.increment_hours, game.bank_cap_hours) == (
        "bank",
        48,
        12,
        96,
    )
    assert game.weekend_pause
    services.join_game(game=game, user=bob)
    services.start_game(game=game, by=ada)
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Time bank: 48 hours to start, 12 hours more for each turn, at most 96 hours." in text
    assert "The clock stops over each player's weekend, in their time zone." in text
    assert "48.0 hours in the bank" in text


def test_the_web_form_refuses_a_cap_below_the_bank(client: Any, ada):
    client.force_login(ada)
    response = client.post(
        "/games/new/",
        {"game_type": "vegas", "edition": "standard", "seats": 2, "turn_hours": 48}
        | {"clock": "bank", "bank_hours": 100, "increment_hours": 12, "cap_hours": 50},
    )
    assert response.status_code == 400
    assert "Largest bank (hours): 100 to 720, not 50." in page_text(response.content.decode())
    assert not Game.objects.exists()


def test_the_api_takes_a_clock_refuses_a_bad_one_and_players_vote_a_pause():
    alice, bob = make_player(), make_player()
    refused = alice.client.post(
        "/api/v1/games/",
        {"game_type": "vegas", "seats": 2, "clock": {"kind": "bank", "increment_hours": 0}},
        format="json",
    )
    assert refused.status_code == 400 and not Game.objects.exists()
    created = alice.client.post(
        "/api/v1/games/",
        {"game_type": "vegas", "seats": 2, "clock": {"kind": "bank", "weekend_pause": True}},
        format="json",
    )
    assert created.status_code == 201, created.content
    clock = body(created)["clock"]
    assert (clock["kind"], clock["bank_hours"], clock["weekend_pause"]) == ("bank", 72, True)
    game_id = body(created)["id"]
    bob.client.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    alice.client.post(f"/api/v1/games/{game_id}/start/", {}, format="json")
    voted = body(alice.client.post(f"/api/v1/games/{game_id}/pause/"))
    assert voted["clock"]["paused"] is False and len(voted["clock"]["pause_votes"]) == 1
    paused = body(bob.client.post(f"/api/v1/games/{game_id}/pause/"))
    assert paused["clock"]["paused_by_players"] is True and paused["deadline"] is None
    resumed = body(alice.client.post(f"/api/v1/games/{game_id}/unpause/"))
    assert resumed["clock"]["paused"] is False and resumed["deadline"] is not None
