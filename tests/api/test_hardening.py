"""Input a probe of a running server answered with a 500 or a silently wrong answer (issue 8):
bytes that are not UTF-8 in the token, bodies too deep or too large, an Idempotency-Key
reused for another command, and answers under ``/api/`` that were not the one JSON shape."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import get_resolver
from django.utils import translation
from knox.models import AuthToken
from rest_framework.test import APIClient

from lords.api.errors import csrf_failure
from tests.api.helpers import API, Player, assert_error, body, move_count, start_game

pytestmark = pytest.mark.django_db


def _turn(game_id: int, *players: Player) -> tuple[Player, dict[str, Any]]:
    for player in players:
        view = body(player.get(f"/games/{game_id}/"))
        if view["your_turn"]:
            return player, view
    raise AssertionError("nobody to move")


# -- 6. the token ---------------------------------------------------------------------------

# WSGI hands headers over as Latin-1 text (PEP 3333): "\xff" is the byte 0xff on the wire.
_BAD_TOKENS = ["\xff\xfe\xfd", "caf\xe9", "\xc3", "abc\x00def", "\x80" * 64]


@pytest.mark.parametrize("token", _BAD_TOKENS)
@pytest.mark.parametrize("path", ["/games/", "/me/", "/tokens/"])
def test_it_refuses_a_token_that_is_not_utf8_text_with_401(token: str, path: str) -> None:
    client = APIClient()
    response = client.get(API + path, HTTP_AUTHORIZATION=f"Token {token}")
    error = assert_error(response, 401, "authentication_failed")
    assert "token" in error["message"].lower()


def test_it_refuses_basic_credentials_that_are_not_utf8_with_401() -> None:
    client = APIClient()
    response = client.post(API + "/tokens/", HTTP_AUTHORIZATION="Basic \xff\xfe\x00")
    assert_error(response, 401, "authentication_failed")


@pytest.mark.parametrize("name", ["a\x00b", "a" * 5_000, "ada@example.org\x00"])
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_it_refuses_a_basic_name_no_account_can_have_with_401(
    alice: Player, name: str, method: str
) -> None:
    """A NUL (which PostgreSQL refuses in a query) or a name longer than an email may be
    (which axes could not store) was a 500; nothing is looked up, nothing changes."""
    basic = base64.b64encode(f"{name}:a-long-password-1".encode()).decode()
    response = getattr(APIClient(), method)(API + "/tokens/", HTTP_AUTHORIZATION=f"Basic {basic}")
    assert_error(response, 401, "authentication_failed")
    assert AuthToken.objects.filter(user=alice.user).count() == 1  # the fixture's own


def test_revoking_a_token_whose_key_holds_a_nul_is_a_404(alice: Player) -> None:
    assert_error(alice.delete("/tokens/%00/"), 404, "not_found")
    assert AuthToken.objects.filter(user=alice.user).count() == 1


# -- 7. depth and size ----------------------------------------------------------------------


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _post_raw(player: Player, path: str, raw: str) -> Any:
    return player.client.generic("POST", API + path, raw, content_type="application/json")


@pytest.mark.parametrize("levels", [5_000, settings.API_MAX_JSON_DEPTH + 1])
def test_it_refuses_a_body_nested_too_deep_with_400_and_the_limit(
    alice: Player, bob: Player, levels: int
) -> None:
    game = start_game(alice, [bob])
    before = move_count(game)
    for path in ("/games/", f"/games/{game}/moves/"):
        body_ = json.dumps({"command": "place 1", "options": json.loads(_deep(10))})
        body_ = body_.replace("[[[[[[[[[[]]]]]]]]]]", _deep(levels))
        error = assert_error(_post_raw(alice, path, body_), 400, "too_deep")
        assert str(settings.API_MAX_JSON_DEPTH) in error["message"]
        assert error["detail"] == {"max_depth": settings.API_MAX_JSON_DEPTH}
    assert move_count(game) == before


def test_a_body_within_the_depth_limit_is_read(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    command = view["legal_commands"][0]["command"]  # {"type": ..., ...}: two levels deep
    answer = mover.post(f"/games/{game}/moves/", {"command": command})
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8"])
def test_it_refuses_a_body_too_large_with_413_and_the_limit(
    alice: Player, bob: Player, content_type: str
) -> None:
    game = start_game(alice, [bob])
    before = move_count(game)
    text = "place 1" + " " * (10 * 1024 * 1024)
    raw = json.dumps({"command": text})
    for path in ("/games/", f"/games/{game}/moves/"):
        response = alice.client.generic("POST", API + path, raw, content_type=content_type)
        error = assert_error(response, 413, "too_large")
        assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}" in error["message"]
        assert error["detail"] == {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    assert move_count(game) == before


# -- 8. an idempotency key reused for another command ---------------------------------------


def test_the_same_key_with_another_command_is_refused_with_422(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    first_command, second_command = (c["text"] for c in view["legal_commands"][:2])
    sent = {"command": first_command, "expected_version": view["version"]}
    first = mover.post(f"/games/{game}/moves/", sent, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201, first.content
    after = move_count(game)

    other = {"command": second_command, "expected_version": view["version"]}
    refused = mover.post(f"/games/{game}/moves/", other, HTTP_IDEMPOTENCY_KEY="k1")
    error = assert_error(refused, 422, "idempotency_key_reused")
    assert first_command in error["message"] and "new key" in error["message"]
    assert move_count(game) == after

    # The same request again is still a retry: the first answer.
    again = mover.post(f"/games/{game}/moves/", sent, HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 200 and again.content == first.content


def test_the_same_key_for_a_later_move_is_refused_with_422(alice: Player, bob: Player) -> None:
    """The key comes back with the version the game is at now: the log's unique key refuses
    the write, and the answer says why rather than answering the first request."""
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    sent = {"command": view["legal_commands"][0]["text"], "expected_version": view["version"]}
    assert mover.post(f"/games/{game}/moves/", sent, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    while True:
        player, now = _turn(game, alice, bob)
        if player is mover:
            break
        player.post(f"/games/{game}/moves/", {"command": now["legal_commands"][0]["text"]})
    before = move_count(game)
    later = {"command": now["legal_commands"][0]["text"], "expected_version": now["version"]}
    refused = mover.post(f"/games/{game}/moves/", later, HTTP_IDEMPOTENCY_KEY="k")
    assert_error(refused, 422, "idempotency_key_reused")
    assert move_count(game) == before


def _form_fields(page: str) -> dict[str, str]:
    fields = {}
    for name in ("expected_version", "idempotency_key"):
        found = re.search(rf'name="{name}" value="([^"]+)"', page)
        assert found, name
        fields[name] = found.group(1)
    return fields


def test_the_web_form_sent_again_with_another_command_is_refused(
    alice: Player, bob: Player
) -> None:
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    first_command, second_command = (c["text"] for c in view["legal_commands"][:2])
    browser = Client()
    browser.force_login(mover.user)
    fields = _form_fields(browser.get(f"/games/{game}/").content.decode())
    sent = browser.post(f"/games/{game}/", {**fields, "text": first_command})
    assert sent.status_code == 302
    after = move_count(game)

    refused = browser.post(f"/games/{game}/", {**fields, "text": second_command})
    assert refused.status_code == 422
    page = refused.content.decode()
    assert "already" in page and first_command in page
    assert move_count(game) == after


# -- 10. every answer under /api/ is the one JSON shape -------------------------------------


@pytest.fixture
def browser_session(alice: Player) -> Client:
    """A signed-in browser that does not send a CSRF token (as a probe would not)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    return client


@pytest.mark.parametrize(
    "path", ["/api/v1/nowhere/", "/api/v1/games/x/moves/", "/api/v1/games/1/nothing", "/api/x/"]
)
def test_an_unroutable_post_under_api_is_a_json_404_not_the_csrf_page(
    browser_session: Client, path: str
) -> None:
    response = browser_session.post(path, "{}", content_type="application/json")
    assert response["Content-Type"] == "application/json"
    assert_error(response, 404, "not_found")


def test_a_post_without_csrf_token_to_an_endpoint_is_a_json_403(browser_session: Client) -> None:
    response = browser_session.post(f"{API}/games/", "{}", content_type="application/json")
    assert response["Content-Type"] == "application/json"
    error = assert_error(response, 403, "permission_denied")
    assert "the CSRF cookie is missing" in error["message"], error


@pytest.mark.parametrize(
    ("language", "token", "said"),
    [
        ("fr", None, ["Refusé par le contrôle", "ne porte pas de jeton CSRF", "jeton d'API"]),
        ("it", "w" * 32, ["Rifiutato dal controllo", "non è quello di questa sessione"]),
    ],
)
def test_a_move_refused_by_the_csrf_check_says_why_in_the_players_language(
    alice: Player, bob: Player, language: str, token: str | None, said: list[str]
) -> None:
    """A signed-in browser's move without its CSRF token (or with another session's):
    refused in the player's language, not DRF's English "CSRF Failed", and nothing played."""
    game = start_game(alice, [bob])
    alice.user.language = language
    alice.user.save(update_fields=["language"])
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice.user)
    browser.cookies["csrftoken"] = "c" * 32
    headers = {} if token is None else {"X-CSRFToken": token}
    before = move_count(game)

    response = browser.post(
        f"{API}/games/{game}/moves/", {"command": "place 1"}, "application/json", headers=headers
    )

    message = assert_error(response, 403, "permission_denied")["message"]
    assert all(words in message for words in said), message
    assert "CSRF Failed" not in message and "the request" not in message
    assert move_count(game) == before


def test_djangos_csrf_refusal_under_api_says_why_in_the_readers_language() -> None:
    """``CSRF_FAILURE_VIEW`` (a plain Django view under /api/), with Django's reason."""
    request = RequestFactory().post("/api/v1/games/", "{}", content_type="application/json")
    with translation.override("fr"):
        response = csrf_failure(request, reason="CSRF cookie not set.")
    message = assert_error(response, 403, "permission_denied")["message"]
    assert "le cookie CSRF manque" in message and "CSRF cookie not set" not in message
    with translation.override("fr"):
        damaged = csrf_failure(request, reason="CSRF cookie has incorrect length.")
    message = assert_error(damaged, 403, "permission_denied")["message"]
    assert "le cookie CSRF est abîmé" in message and "manque" not in message


def test_a_wrong_method_under_api_is_a_json_405(alice: Player) -> None:
    response = alice.client.put(f"{API}/games/", {}, format="json")
    assert response["Content-Type"] == "application/json"
    assert_error(response, 405, "method_not_allowed")


@pytest.mark.parametrize("status", [400, 403, 404, 500])
def test_djangos_error_pages_under_api_are_the_json_shape(status: int) -> None:
    """What Django answers itself (outside DRF's views): its error handlers."""
    request = RequestFactory().post("/api/v1/games/", "{}", content_type="application/json")
    handler: Any = get_resolver().resolve_error_handler(status)
    response = handler(request) if status == 500 else handler(request, Exception("no"))
    assert response["Content-Type"] == "application/json"
    assert_error(response, status)


def test_djangos_error_pages_elsewhere_stay_html() -> None:
    request = RequestFactory().get("/games/nowhere/")
    handler: Any = get_resolver().resolve_error_handler(404)
    response = handler(request, Exception("no"))
    assert response.status_code == 404
    assert "text/html" in response["Content-Type"]
