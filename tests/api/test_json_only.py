"""The API takes JSON and only JSON (docs/decisions/0025-an-api-that-takes-json-only.md):
a form or a multipart body is refused with 415 in the one error shape and changes nothing.
Form encodings let a field that holds JSON (options, clock, email choices) be dropped or
read as text, and bytes that are not UTF-8 be stored mangled, all answered 2xx (found by
fuzzing)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from games.talk_models import ChatMessage
from tests.api.helpers import API, Player, assert_error, body, start_game

pytestmark = pytest.mark.django_db

FORMS = ["multipart", "urlencoded"]


def _send(player: Player, method: str, path: str, fields: dict[str, Any], form: str) -> Any:
    if form == "multipart":  # (the test client encodes a dict as multipart/form-data)
        return getattr(player.client, method)(API + path, fields, format="multipart")
    raw = "&".join(f"{key}={value}" for key, value in fields.items())
    return player.client.generic(
        method.upper(), API + path, raw, content_type="application/x-www-form-urlencoded"
    )


@pytest.mark.parametrize("form", FORMS)
def test_a_game_is_not_created_from_a_form(alice: Player, form: str) -> None:
    fields = {"game_type": "vegas", "seats": "2", "options": '{"variant":"neutral"}'}
    before = Game.objects.count()
    error = assert_error(_send(alice, "post", "/games/", fields, form), 415)
    assert error["code"] == "unsupported_media_type"
    assert Game.objects.count() == before


@pytest.mark.parametrize("form", FORMS)
def test_the_profile_is_not_changed_from_a_form(alice: Player, form: str) -> None:
    before = body(alice.get("/me/"))
    fields = {"email_choices": '{"digest_hour":9}', "time_zone": "Europe/Paris"}
    assert_error(_send(alice, "patch", "/me/", fields, form), 415, "unsupported_media_type")
    assert body(alice.get("/me/")) == before


def test_a_message_is_not_posted_from_a_form(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    response = _send(alice, "post", f"/games/{game}/chat/", {"text": "hello%ff%fe"}, "urlencoded")
    assert_error(response, 415, "unsupported_media_type")
    assert not ChatMessage.objects.filter(game_id=game).exists()


def test_a_post_without_a_body_needs_no_content_type(alice: Player, bob: Player) -> None:
    """``curl -X POST .../start/`` sends no body and no type: still fine."""
    game = body(alice.post("/games/", {"game_type": "vegas", "seats": 2}))["id"]
    assert bob.client.post(f"{API}/games/{game}/join/").status_code == 200
    response = alice.client.generic("POST", f"{API}/games/{game}/start/", "", content_type="")
    assert response.status_code == 200, response.content


def test_the_schema_offers_json_bodies_only(anonymous: Any) -> None:
    schema = body(anonymous.get("/api/schema/?format=json"))
    types = {
        media
        for path in schema["paths"].values()
        for operation in path.values()
        for media in operation.get("requestBody", {}).get("content", {})
    }
    assert types == {"application/json"}
