"""Play a whole game through every door: seat 1 moves by the web form, seat 2 alternately
by the REST API and by replying to the turn emails it actually received; the record then
verifies. The after-commit hooks run (``django_capture_on_commit_callbacks``), so every
turn email is the one the notifications app really sends, to a real SMTP server."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from games import services
from games.models import Game, Move
from tests.notifications.conftest import commands_offered, deliver, reply_to, smtp  # noqa: F401

pytestmark = pytest.mark.django_db


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert match, f"no {name} in the page"
    return match[1]


def _web_move(browser: Client, game_id: int) -> str:
    """Read the page as a browser does, press the first legal command's button, then say
    yes on the confirm step."""
    page = browser.get(f"/games/{game_id}/").content.decode()
    choice = _hidden(page, "choice")
    form = {
        "expected_version": _hidden(page, "expected_version"),
        "idempotency_key": _hidden(page, "idempotency_key"),
        "choice": choice,
        "text": "",
    }
    asked = browser.post(f"/games/{game_id}/", form)
    assert asked.status_code == 200 and "cannot be taken back" in asked.content.decode()
    response = browser.post(f"/games/{game_id}/", {**form, "confirmed": "on"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    return choice


def _api_move(api: APIClient, game_id: int) -> str:
    view = json.loads(api.get(f"/api/v1/games/{game_id}/").content)
    assert view["your_turn"]
    command = view["legal_commands"][0]["text"]
    answer = api.post(
        f"/api/v1/games/{game_id}/moves/",
        {"command": command, "expected_version": view["version"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY=f"api-{view['version']}",
    )
    assert answer.status_code == 201, answer.content
    return command


def _email_move(inbox: Any, address: str) -> str:
    """Reply to the latest turn email this player received, with its first command."""
    turns = [m for m in inbox.messages if m["To"] == address and "Your turn" in m["Subject"]]
    assert turns, "no turn email arrived"
    latest = turns[-1]
    command = commands_offered(latest)[0]
    printed = deliver(reply_to(latest, command))
    assert printed.startswith("played:"), printed
    return command


def test_a_whole_game_through_the_web_the_api_and_email(
    make_game,
    ada,
    bob,
    smtp,  # noqa: F811  (the fixture, imported above)
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(ada, bob, game_type="vegas", start=False)
        services.start_game(game=game, by=ada, seed="every door")
    browser = Client()
    browser.force_login(ada)
    api = APIClient()
    _, token = AuthToken.objects.create(user=bob, expiry=None)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    by_door = {"web": 0, "api": 0, "email": 0}
    for _ in range(500):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.seats.get(to_act=True)
        with django_capture_on_commit_callbacks(execute=True):
            if seat.user == ada:
                _web_move(browser, game.pk)
                by_door["web"] += 1
            elif (by_door["api"] + by_door["email"]) % 2 == 0:
                _api_move(api, game.pk)
                by_door["api"] += 1
            else:
                _email_move(smtp, bob.email)
                by_door["email"] += 1
    assert game.status == Game.Status.FINISHED
    sources = set(Move.objects.filter(game=game).values_list("source", flat=True))
    assert {"web", "api", "email"} <= sources
    assert min(by_door.values()) >= 2, by_door
    assert Move.objects.filter(game=game, source="email").count() == by_door["email"]
    verified = json.loads(api.get(f"/api/v1/games/{game.pk}/verify/").content)
    assert verified["ok"], verified
    assert verified["moves_checked"] > 0
    answers = [m for m in smtp.messages if "Played" in m["Subject"]]
    assert len(answers) == by_door["email"]
    assert any("Game over" in m["Subject"] for m in smtp.messages if m["To"] == bob.email)
