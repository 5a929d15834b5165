"""The same Idempotency-Key twice: one move, the same answer."""

from __future__ import annotations

import pytest

from tests.api.helpers import Player, assert_error, body, game_row, move_count, start_game

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
    """Keys are per game: another player's key is a reused key, the documented 422 (it was
    an undocumented 400 invalid_request), and their command is not told."""
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    other = bob if mover is alice else alice
    request = {"command": view["legal_commands"][0]["text"]}
    assert mover.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    before = move_count(game)
    version = game_row(game).version
    reused = other.post(f"/games/{game}/moves/", request, HTTP_IDEMPOTENCY_KEY="k")
    message = assert_error(reused, 422, "idempotency_key_reused")["message"]
    assert "another player" in message and request["command"] not in message, message
    assert move_count(game) == before and game_row(game).version == version
    # The same key in another game is another key.
    elsewhere = start_game(alice, [bob])
    mover2, view2 = _turn(elsewhere, alice, bob)
    sent = {"command": view2["legal_commands"][0]["text"]}
    assert (
        mover2.post(f"/games/{elsewhere}/moves/", sent, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    )


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


def test_a_key_sent_again_with_another_version_says_so(alice: Player, bob: Player) -> None:
    """The same command with the same key but another expected version (or none) is
    another request, refused: the message says it is the version that differs, in the
    reader's language, rather than calling the same command a different one."""
    game = start_game(alice, [bob])
    mover, view = _turn(game, alice, bob)
    version, command = view["version"], view["legal_commands"][0]["text"]
    moves = f"/games/{game}/moves/"
    sent = {"command": command, "expected_version": version}
    assert mover.post(moves, sent, HTTP_IDEMPOTENCY_KEY="k1").status_code == 201
    after = move_count(game)

    bare = mover.post(moves, {"command": command}, HTTP_IDEMPOTENCY_KEY="k1")
    message = assert_error(bare, 422, "idempotency_key_reused")["message"]
    assert f"'{command}' with version {version}; this request has none" in message, message
    assert "different" not in message
    other = {"command": command, "expected_version": version + 7}
    french = mover.post(moves, other, HTTP_IDEMPOTENCY_KEY="k1", HTTP_ACCEPT_LANGUAGE="fr")
    message = assert_error(french, 422, "idempotency_key_reused")["message"]
    assert f"avec la version {version}\u00a0; cette requête a la version {version + 7}" in message
    assert move_count(game) == after

    # Keyed first without a version, sent again with one.
    other_player = bob if mover is alice else alice
    mover, view = _turn(game, alice, bob)
    assert mover is other_player
    command = view["legal_commands"][0]["text"]
    assert mover.post(moves, {"command": command}, HTTP_IDEMPOTENCY_KEY="k2").status_code == 201
    after = move_count(game)
    versioned = {"command": command, "expected_version": view["version"]}
    italian = mover.post(moves, versioned, HTTP_IDEMPOTENCY_KEY="k2", HTTP_ACCEPT_LANGUAGE="it")
    message = assert_error(italian, 422, "idempotency_key_reused")["message"]
    assert f"'{command}' senza versione; questa richiesta ha la versione {view['version']}" in (
        message
    )
    assert move_count(game) == after
