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


# -- JSON types, strictly (lords/api/strict.py) --------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("seats", "3"), ("seats", 3.0), ("private", "yes"), ("private", 1), ("game_type", 1)],
)
def test_a_game_takes_json_types_only(alice: Player, field: str, value: Any) -> None:
    """DRF's lenient fields took "3" and 3.0 for 3, "yes" and 1 for true."""
    before = Game.objects.count()
    sent = {"game_type": "vegas", "seats": 2, field: value}
    error = assert_error(alice.post("/games/", sent), 400, "invalid")
    assert list(error["detail"]["fields"]) == [field]
    assert Game.objects.count() == before


@pytest.mark.parametrize(
    "choices", [{"reminders": "on"}, {"digest_hour": "9"}, {"game_email": 1}, {"muted": ["1"]}]
)
def test_the_profile_takes_json_types_only(alice: Player, choices: dict[str, Any]) -> None:
    before = body(alice.get("/me/"))
    error = assert_error(alice.patch("/me/", {"email_choices": choices}), 400, "invalid")
    assert list(error["detail"]["fields"]) == ["email_choices"]
    assert body(alice.get("/me/")) == before


def test_talk_and_notes_take_json_types_only(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    for text in ("0", "1e400", "true"):  # (the raw JSON: a number, a huge one, a boolean)
        raw = '{"text": ' + text + "}"
        for path in (f"/games/{game}/notes/", f"/games/{game}/chat/"):
            response = alice.client.generic(
                "POST", API + path, raw, content_type="application/json"
            )
            error = assert_error(response, 400, "invalid")
            assert "JSON string" in error["message"]
    assert body(alice.get(f"/games/{game}/notes/"))["text"] == ""
    assert not ChatMessage.objects.filter(game_id=game).exists()
    muted = alice.post(f"/games/{game}/chat/mute/", {"order": 1, "muted": "off"})
    assert_error(muted, 400, "invalid")


# -- query parameters ------------------------------------------------------------------------


@pytest.mark.parametrize("since", ["", "1_0", "1.0", "+3", "\uff13", "\u0663", " 3", "x"])
def test_an_integer_query_parameter_is_ascii_digits(alice: Player, bob: Player, since: str) -> None:
    game = start_game(alice, [bob])
    error = assert_error(alice.get(f"/games/{game}/moves/", {"since": since}), 400, "invalid")
    assert list(error["detail"]["fields"]) == ["since"]


def test_good_query_parameters_are_read_and_unknown_ones_ignored(
    alice: Player, bob: Player
) -> None:
    game = start_game(alice, [bob])
    assert body(alice.get(f"/games/{game}/moves/", {"since": "-1", "colour": "x"}))
    assert body(alice.get(f"/games/{game}/moves/", {"since": "0"})) is not None
    assert alice.get(f"/games/{game}/chat/", {"limit": "5"}).status_code == 200


@pytest.mark.parametrize(
    ("path", "name"), [("/games/", "status"), ("/games/", "waiting"), ("/games/1/chat/", "limit")]
)
def test_an_empty_query_parameter_is_refused(alice: Player, path: str, name: str) -> None:
    error = assert_error(alice.get(path, {name: ""}), 400, "invalid")
    assert list(error["detail"]["fields"]) == [name]


# -- every answer JSON ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ({}, {"HTTP_ACCEPT": "text/html"}),
        ({"format": "api"}, {}),
        ({"format": "xml"}, {}),
        ({"format": "api"}, {"HTTP_ACCEPT": "text/html"}),
    ],
)
def test_every_answer_under_api_is_json(
    alice: Player, query: dict[str, str], headers: dict[str, Any]
) -> None:
    """The browsable HTML page was on for all of /api/; ``?format=xml`` answered 404 "Not
    found." and hid the real answer."""
    listed = alice.client.get(f"{API}/games/", query, **headers)
    assert listed.status_code == 200, listed.content
    assert listed["Content-Type"] == "application/json"
    assert isinstance(body(listed), list)
    missing = alice.client.get(f"{API}/games/999999/", query, **headers)
    error = assert_error(missing, 404, "not_found")
    assert "999999" in error["message"]


def test_the_schema_and_docs_pages_stay_as_they_are(anonymous: Any) -> None:
    assert body(anonymous.get("/api/schema/?format=json"))["openapi"]
    assert anonymous.get("/api/schema/")["Content-Type"].startswith("application/vnd.oai")
    assert anonymous.get("/api/docs/")["Content-Type"].startswith("text/html")
