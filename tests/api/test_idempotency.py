"""The same Idempotency-Key twice: one move, the same answer."""

from __future__ import annotations

import pytest

from tests.api.helpers import Player, assert_error, body, move_count, start_game

pytestmark = pytest.mark.django_db


def _turn(game_id: int, *players: Player) -> tuple[Player, dict]:
    for player in players:
        view = body(player.get(f"/games/{game_id}/"))
        if view["your_turn"]:
            return player, view
    raise AssertionError("nobody to move")


def test_the_same_key_twice_writes_one_move_and_gives_the_same_answer(
    alice: Player, bob: Player
) -> None:
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    request = {"command": view["legal_commands"][0]["text"], "expected_version": view["version"]}
    first = mover.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="key-1")
    assert first.status_code == 201, first.content
    after_first = move_count(game)
    assert after_first == view["version"] + 2  # setup + every move up to and with this one

    again = mover.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="key-1")
    assert again.status_code == 200, again.content
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert move_count(game) == after_first

    # Even once the game has moved on (the expected version is stale by now), a retry of
    # the first request is answered with the first answer, not refused.
    other, view2 = _turn(game, alice, bob)
    more = other.post(
        f"/games/{game}/moves/",
        {"command": view2["legal_commands"][0]["text"]},
        HTTP_IDEMPOTENCY_KEY="key-2",
    )
    assert more.status_code == 201
    late = mover.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="key-1")
    assert late.status_code == 200
    assert late.content == first.content
    assert body(late)["version"] == view["version"] + 1


def test_someone_elses_key_is_not_their_answer(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    other = bob if mover is alice else alice
    request = {"command": view["legal_commands"][0]["text"]}
    assert mover.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    before = move_count(game)
    reused = other.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="k")
    assert_error(reused, 400, "invalid_request")
    assert move_count(game) == before


def test_a_replay_carries_the_tag_to_poll_with(alice: Player, bob: Player) -> None:
    """The first answer's ETag is what its client polls with: a replay gives it too while
    the game is where that submission left it; once the game has moved on, a tag that
    reads as that version (If-Match refuses it as stale) and never answers 304, so the
    next poll shows the moves since."""
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    request = {"command": view["legal_commands"][0]["text"], "expected_version": view["version"]}
    moves = f"/games/{game}/moves/"
    first = mover.post(moves, request, HTTP_IDEMPOTENCY_KEY="key-1")
    assert first.status_code == 201, first.content

    again = mover.post(moves, request, HTTP_IDEMPOTENCY_KEY="key-1")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert again.headers["ETag"] == first.headers["ETag"]
    polled = mover.get(f"/games/{game}/", HTTP_IF_NONE_MATCH=again.headers["ETag"])
    assert polled.status_code == 304

    other, view2 = _turn(game, alice, bob)
    played = other.post(moves, {"command": view2["legal_commands"][0]["text"]})
    assert played.status_code == 201, played.content
    late = mover.post(moves, request, HTTP_IDEMPOTENCY_KEY="key-1")
    assert late.content == first.content
    tag = late.headers["ETag"]
    assert tag.strip('"').split(".")[0] == str(body(first)["version"])
    polled = mover.get(f"/games/{game}/", HTTP_IF_NONE_MATCH=tag)
    assert polled.status_code == 200 and body(polled)["version"] == body(played)["version"]
    before = move_count(game)
    stale = mover.post(moves, {"command": "place 1"}, HTTP_IF_MATCH=tag)
    assert_error(stale, 409, "stale_version")
    assert move_count(game) == before

