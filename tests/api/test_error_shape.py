"""One error shape everywhere, so one parser reads them all: each field's errors are a list
of strings, and a game that does not exist is named in ``detail`` whichever endpoint was
asked (a bot's author found both otherwise: docs/decisions/0039)."""

from __future__ import annotations

import pytest

from games.models import Webhook
from tests.api.helpers import Player, assert_error

pytestmark = pytest.mark.django_db


def _fields(response) -> dict:
    fields = assert_error(response, 400, "invalid")["detail"]["fields"]
    for name, errors in fields.items():
        assert isinstance(errors, list) and all(isinstance(e, str) for e in errors), name
    return fields


def test_a_bad_last_event_id_is_a_list_of_errors(alice: Player) -> None:
    answer = alice.get("/events/", HTTP_LAST_EVENT_ID="abc", HTTP_ACCEPT="text/event-stream")
    assert list(_fields(answer)) == ["last_event_id"]
    assert list(_fields(alice.get("/events/", {"seconds": "0"}))) == ["seconds"]


def test_a_refused_webhook_url_is_a_list_of_errors(alice: Player) -> None:
    assert list(_fields(alice.post("/webhooks/", {"url": "ftp://example.org/h"}))) == ["url"]
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/games/999999/"),
        ("post", "/games/999999/moves/"),
        ("get", "/games/999999/chat/"),
        ("post", "/games/999999/chat/"),
        ("get", "/games/999999/export/"),
    ],
)
def test_an_unknown_game_is_named_in_the_detail(alice: Player, method: str, path: str) -> None:
    sent = {"command": "place 1"} if path.endswith("moves/") else {"text": "hi"}
    answer = alice.get(path) if method == "get" else alice.post(path, sent)
    assert assert_error(answer, 404, "not_found")["detail"] == {"game": 999999}
