"""A player not to act cannot keep the active one's submissions stale (found by a security
test): ``prefer layoff never``, already their choice, was logged each time it was sent and
moved the game's version on, so that the active player's command, sent with the version they
saw, was refused as stale. A standing choice that changes nothing is refused and writes
nothing; one that changes something does not make the active player's version stale."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import Player, assert_error, body, game_row, move_count, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice: Player, bob: Player) -> dict[str, Any]:
    """A two-player Lords of Vegas game: its id, the player to act and the other."""
    game_id = start_game(alice, [bob], "lords-of-vegas")
    active = alice if body(alice.get(f"/games/{game_id}/"))["your_turn"] else bob
    other = bob if active is alice else alice
    return {"id": game_id, "active": active, "other": other}


def _send(player: Player, game_id: int, text: str, version: int | None = None) -> Any:
    sent: dict[str, Any] = {"command": text}
    if version is not None:
        sent["expected_version"] = version
    return player.post(f"/games/{game_id}/moves/", sent)


def _version(game_id: int) -> int:
    return game_row(game_id).version


def test_a_standing_choice_that_changes_nothing_is_refused_and_writes_nothing(
    table: dict[str, Any],
) -> None:
    game_id = table["id"]
    before = (_version(game_id), move_count(game_id))

    refused = _send(table["other"], game_id, "prefer layoff never")  # the default already

    error = assert_error(refused, 400, "nothing_to_change")
    assert error["message"] == (
        "prefer layoff never changes nothing: it is already your choice. Nothing was played."
    )
    assert (_version(game_id), move_count(game_id)) == before
    many = _send(table["other"], game_id, "; ".join(["prefer layoff never"] * 50))
    assert_error(many, 400, "nothing_to_change")
    assert (_version(game_id), move_count(game_id)) == before


def test_a_change_then_its_repeat_in_one_submission_is_refused_whole(
    table: dict[str, Any],
) -> None:
    game_id = table["id"]
    before = (_version(game_id), move_count(game_id))
    refused = _send(table["other"], game_id, "prefer layoff always; prefer layoff always")
    error = assert_error(refused, 400, "nothing_to_change")
    assert error["message"].startswith("command 2 of 2: prefer layoff always changes nothing")
    assert (_version(game_id), move_count(game_id)) == before


def test_another_players_standing_choice_leaves_the_active_players_version_good(
    table: dict[str, Any],
) -> None:
    game_id = table["id"]
    seen = body(table["active"].get(f"/games/{game_id}/"))["version"]
    for choice in ("prefer layoff always", "prefer place ask"):
        assert _send(table["other"], game_id, choice).status_code == 201
    assert _version(game_id) == seen + 2

    ended = _send(table["active"], game_id, "end", seen)

    assert ended.status_code == 201, ended.content
    assert [m["text"] for m in body(ended)["moves"]][:1] == ["end"]
    players = body(table["other"].get(f"/games/{game_id}/"))["view"]["players"]
    assert {"layoff": "always", "place": "ask"} in [p["prefs"] for p in players]


def test_any_other_move_since_still_makes_the_version_stale(table: dict[str, Any]) -> None:
    game_id = table["id"]
    seen = body(table["active"].get(f"/games/{game_id}/"))["version"]
    assert _send(table["other"], game_id, "prefer layoff always").status_code == 201
    assert _send(table["active"], game_id, "prefer layoff always").status_code == 201
    # (the active player's own choice: they know of it, and the version says so)
    assert_error(_send(table["active"], game_id, "end", seen), 409, "stale_version")
    assert_error(_send(table["active"], game_id, "end", seen + 5), 409, "stale_version")
    assert _send(table["active"], game_id, "end", seen + 2).status_code == 201


def test_twenty_standing_choices_an_hour_and_no_more(table: dict[str, Any]) -> None:
    """Toggled back and forth, each a real change, 50 a request filled the log and every
    player's page and webhook (the security test's residue): twenty an hour."""
    game_id, other = table["id"], table["other"]
    toggles = ["prefer layoff always", "prefer layoff never"] * 10
    assert _send(other, game_id, "; ".join(toggles)).status_code == 201
    before = (_version(game_id), move_count(game_id))
    error = assert_error(_send(other, game_id, "prefer layoff always"), 400, "too_many_choices")
    assert error["message"] == (
        f"20 standing preferences within the hour is the most in game #{game_id} (you made 20, and "
        "this sends 1): wait a while before changing them again"
    )
    assert (_version(game_id), move_count(game_id)) == before
    assert _send(table["active"], game_id, "prefer layoff always").status_code == 201


def test_a_submission_of_standing_choices_only_is_not_stale(table: dict[str, Any]) -> None:
    """A standing choice decides how its player's decisions to come are answered, not the
    board: sent with a version the game has passed, it stands (the board page's choices,
    kept current by live.js or left open, were refused as stale: found by review). A move
    sent with that version is still refused."""
    game_id = table["id"]
    old = _version(game_id)
    assert _send(table["active"], game_id, "end", old).status_code == 201
    assert _version(game_id) > old
    assert _send(table["active"], game_id, "prefer layoff ask", old).status_code == 201
    before = (_version(game_id), move_count(game_id))
    assert_error(_send(table["other"], game_id, "end", old), 409, "stale_version")
    assert (_version(game_id), move_count(game_id)) == before
