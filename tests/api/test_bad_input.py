"""Bad input through the API: each answer has the one error shape and nothing is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.request import Request
from rest_framework.test import APIClient

from games.models import Game
from tests.api.helpers import API, Player, assert_error, body, move_count, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Player, bob: Player) -> int:
    return start_game(alice, [bob], "vegas")


def _mover(game_id: int, *players: Player) -> tuple[Player, Player, dict[str, Any]]:
    """(the player the game waits on, the other one, the mover's view)."""
    for player in players:
        view = body(player.get(f"/games/{game_id}/"))
        if view["your_turn"]:
            other = next(p for p in players if p is not player)
            return player, other, view
    raise AssertionError("the game waits on nobody")


def _unrolled(view: dict[str, Any]) -> int | None:
    rolled = {int(c["text"].split()[-1]) for c in view["legal_commands"]}
    return next((n for n in range(1, 7) if n not in rolled), None)


def test_malformed_json_is_refused(game: int, alice: Player) -> None:
    before = move_count(game)
    response = alice.client.post(
        f"{API}/games/{game}/moves/", data=b'{"command": "place', content_type="application/json"
    )
    error = assert_error(response, 400, "malformed_request")
    assert "JSON" in error["message"]
    assert move_count(game) == before


def test_a_body_that_is_not_an_object_is_refused(game: int, alice: Player) -> None:
    before = move_count(game)
    assert_error(alice.post(f"/games/{game}/moves/", ["place 4"]), 400, "malformed_request")
    assert_error(alice.post(f"/games/{game}/moves/", {"command": 4}), 400, "invalid")
    assert_error(alice.post(f"/games/{game}/moves/", {}), 400, "invalid")
    assert move_count(game) == before


def test_an_unknown_command_is_refused(game: int, alice: Player, bob: Player) -> None:
    mover, _, _ = _mover(game, alice, bob)
    before = move_count(game)
    error = assert_error(
        mover.post(f"/games/{game}/moves/", {"command": "fly to the moon"}),
        400,
        "malformed_command",
    )
    assert "fly" in error["message"]
    assert_error(
        mover.post(f"/games/{game}/moves/", {"command": {"type": "teleport"}}),
        400,
        "malformed_command",
    )
    assert move_count(game) == before


def test_an_illegal_move_is_refused_with_the_engines_message(
    game: int, alice: Player, bob: Player
) -> None:
    mover, _, view = _mover(game, alice, bob)
    while (number := _unrolled(view)) is None:  # all six numbers rolled: play on a little
        played = mover.post(f"/games/{game}/moves/", {"command": "place 1"})
        assert played.status_code == 201, played.content
        mover, _, view = _mover(game, alice, bob)
    before = move_count(game)
    error = assert_error(
        mover.post(f"/games/{game}/moves/", {"command": f"place {number}"}), 400, "illegal_move"
    )
    assert str(number) in error["message"]
    assert move_count(game) == before


def test_a_move_out_of_turn_is_refused(game: int, alice: Player, bob: Player) -> None:
    _, waiting, view = _mover(game, alice, bob)
    before = move_count(game)
    command = view["legal_commands"][0]["text"]
    error = assert_error(
        waiting.post(f"/games/{game}/moves/", {"command": command}), 409, "not_your_turn"
    )
    # Whom the game waits on, in the player's words: the mover's colour and name.
    mover_seat = next(s for s in view["seats"] if s["order"] == view["your_seat"])
    assert mover_seat["name"] in error["message"]
    assert mover_seat["colour"].capitalize() in error["message"]
    assert "not yours" in error["message"]
    assert error["detail"]["to_act"] == view["to_act"]
    assert move_count(game) == before


def test_a_stale_version_is_refused_with_the_current_version(
    game: int, alice: Player, bob: Player
) -> None:
    mover, _, view = _mover(game, alice, bob)
    command = view["legal_commands"][0]["text"]
    before = move_count(game)
    stale: list[tuple[dict[str, Any], dict[str, str]]] = [
        ({"command": command, "expected_version": view["version"] + 1}, {}),
        ({"command": command}, {"HTTP_IF_MATCH": f'"{view["version"] + 7}"'}),
    ]
    for data, headers in stale:
        error = assert_error(mover.post(f"/games/{game}/moves/", data, **headers), 409)
        assert error["code"] == "stale_version"
        assert error["detail"]["current_version"] == view["version"]
    assert move_count(game) == before
    # The version it reads is the one it accepts (the game view's ETag, as If-Match).
    etag = mover.get(f"/games/{game}/").headers["ETag"]
    ok = mover.post(f"/games/{game}/moves/", {"command": command}, HTTP_IF_MATCH=etag)
    assert ok.status_code == 201, ok.content
    assert move_count(game) > before


def test_if_match_and_expected_version_must_agree(game: int, alice: Player, bob: Player) -> None:
    mover, _, view = _mover(game, alice, bob)
    before = move_count(game)
    response = mover.post(
        f"/games/{game}/moves/",
        {"command": view["legal_commands"][0]["text"], "expected_version": view["version"]},
        HTTP_IF_MATCH=f'"{view["version"] + 1}"',
    )
    assert_error(response, 400, "invalid")
    assert_error(
        mover.post(f"/games/{game}/moves/", {"command": "place 1"}, HTTP_IF_MATCH="yesterday"),
        400,
        "invalid",
    )
    assert move_count(game) == before


def test_an_unknown_game_is_not_found(alice: Player) -> None:
    for response in [
        alice.get("/games/999999/"),
        alice.get("/games/999999/moves/"),
        alice.post("/games/999999/moves/", {"command": "place 4"}),
        alice.post("/games/999999/join/", {}),
        alice.get("/games/999999/trades/"),
        alice.post("/games/999999/trades/1/accept/"),
        alice.get("/no-such-endpoint/"),
    ]:
        assert_error(response, 404, "not_found")
    error = assert_error(alice.get("/games/999999/"), 404, "not_found")
    assert error["message"] == "there is no game #999999"
    assert error["detail"] == {"game": 999999}


def test_a_trade_offer_of_another_game_is_not_found(game: int, alice: Player) -> None:
    assert_error(alice.post(f"/games/{game}/trades/424242/decline/"), 404, "not_found")


@pytest.mark.parametrize(
    "call",
    [
        lambda c, g: c.get(f"{API}/games/"),
        lambda c, g: c.get(f"{API}/games/{g}/"),
        lambda c, g: c.post(f"{API}/games/{g}/moves/", {"command": "place 4"}, format="json"),
        lambda c, g: c.get(f"{API}/me/"),
        lambda c, g: c.get(f"{API}/tokens/"),
    ],
)
def test_missing_or_bad_credentials_are_refused(
    game: int, anonymous: APIClient, call: Callable[[APIClient, int], Any]
) -> None:
    before = move_count(game)
    error = assert_error(call(anonymous, game), 401, "not_authenticated")
    assert "Token" in error["message"]
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error(call(anonymous, game), 401, "authentication_failed")
    assert move_count(game) == before


def test_a_private_game_is_closed_to_strangers(alice: Player, bob: Player) -> None:
    created = body(alice.post("/games/", {"game_type": "vegas", "seats": 2, "private": True}))
    error = assert_error(bob.get(f"/games/{created['id']}/"), 403, "not_allowed")
    assert error["message"] == f"game #{created['id']} is private"
    assert error["detail"] == {"game": created["id"]}
    assert_error(bob.post(f"/games/{created['id']}/join/", {}), 403, "not_allowed")


def test_bad_options_are_refused(alice: Player) -> None:
    error = assert_error(
        alice.post("/games/", {"game_type": "vegas", "options": {"variant": "turbo"}}),
        400,
        "invalid_options",
    )
    assert "turbo" in error["message"]
    assert_error(alice.post("/games/", {"game_type": "chess"}), 400, "invalid")
    assert_error(alice.post("/games/", {"game_type": "vegas", "seats": 9}), 400, "invalid")


@pytest.mark.parametrize("colours", [0, "", [], False, None, {}, "red"])
def test_lords_of_vegas_colours_must_be_a_list_of_colours(alice: Player, colours: Any) -> None:
    """An "empty" value was taken for the default and stored, shown until the start."""
    sent = {"game_type": "lords-of-vegas", "seats": 2, "options": {"colours": colours}}
    before = Game.objects.count()
    error = assert_error(alice.post("/games/", sent), 400, "invalid_options")
    assert "colour" in error["message"]
    assert Game.objects.count() == before


def test_a_wrong_method_has_the_error_shape(alice: Player) -> None:
    assert_error(alice.delete("/games/"), 405, "method_not_allowed")


def test_an_oversized_or_odd_idempotency_key_is_refused(game: int, alice: Player) -> None:
    before = move_count(game)
    response = alice.post(
        f"/games/{game}/moves/", {"command": "place 4"}, HTTP_IDEMPOTENCY_KEY="k" * 201
    )
    error = assert_error(response, 400, "invalid")
    assert "Idempotency-Key" in error["detail"]["fields"]
    assert move_count(game) == before


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-16"])
def test_a_move_is_read_from_json_in_any_charset(
    game: int, alice: Player, bob: Player, content_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body typed exactly ``application/json`` is read by the API's parser straight from
    the request (``lords.api.parsers.json_body``: DRF's reading is not called); one with a
    charset goes DRF's way: each is played the same (issue 15). (A form is refused:
    tests/api/test_json_only.py.)"""
    if content_type == "application/json":
        monkeypatch.setattr(Request, "_parse", _not_called)
    mover, _, view = _mover(game, alice, bob)
    command = view["legal_commands"][0]["text"]
    if content_type.endswith("utf-16"):
        data: Any = json.dumps({"command": command}).encode("utf-16")
    else:
        data = json.dumps({"command": command}).encode()
    before = move_count(game)
    response = mover.client.post(f"{API}/games/{game}/moves/", data=data, content_type=content_type)
    assert response.status_code == 201, response.content
    assert body(response)["moves"][0]["text"] == command
    assert move_count(game) > before


def _not_called(*args: Any) -> Any:
    raise AssertionError("DRF's reading of the body")


def test_an_empty_json_body_is_refused_as_drf_refuses_it(game: int, alice: Player) -> None:
    before = move_count(game)
    response = alice.client.post(f"{API}/games/{game}/moves/", content_type="application/json")
    assert_error(response, 400, "invalid")
    assert move_count(game) == before


def test_a_json_body_that_breaks_is_refused_in_the_movers_language(
    game: int, alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Request, "_parse", _not_called)
    mover, _, _ = _mover(game, alice, bob)
    before = move_count(game)
    response = mover.client.post(
        f"{API}/games/{game}/moves/",
        data=b'{"command": "place',
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    error = assert_error(response, 400, "malformed_request")
    assert error["message"].startswith("Le corps n'est pas du JSON"), error
    assert move_count(game) == before


def test_a_lords_of_vegas_command_with_a_field_it_does_not_take_is_refused(
    alice: Player, bob: Player
) -> None:
    """A typo in a JSON command (``"colour"`` for a build) was ignored and the rest played."""
    game = start_game(alice, [bob], "lords-of-vegas")
    mover, _, view = _mover(game, alice, bob)
    command = {**view["legal_commands"][0]["command"], "colour": "green"}
    before = move_count(game)
    error = assert_error(mover.post(f"/games/{game}/moves/", {"command": command}), 400)
    assert error["code"] == "malformed_command"
    assert "unexpected field 'colour'" in error["message"]
    assert move_count(game) == before
    assert body(mover.get(f"/games/{game}/"))["version"] == view["version"]
