"""A body field the endpoint does not know is refused (``400 invalid``, naming it), and
nothing changes: a misspelled ``expected_version`` once turned off the stale-version check
and the move was played (docs/decisions/0039)."""

from __future__ import annotations

import pytest

from games.models import ChatMessage, Game, Webhook
from tests.api.helpers import Player, assert_error, body, game_row, move_count, start_game

pytestmark = pytest.mark.django_db


def _mover(game: int, *players: Player) -> tuple[Player, dict]:
    for player in players:
        view = body(player.get(f"/games/{game}/"))
        if view["your_turn"]:
            return player, view
    raise AssertionError("nobody to move")


@pytest.mark.parametrize("misspelled", ["expectedVersion", "expected_verison"])
def test_a_misspelled_expected_version_is_refused_not_ignored(
    alice: Player, bob: Player, misspelled: str
) -> None:
    game = start_game(alice, [bob])
    mover, view = _mover(game, alice, bob)
    stale = view["version"] - 1
    before, version = move_count(game), game_row(game).version
    sent = {"command": view["legal_commands"][0]["text"], misspelled: stale}
    error = assert_error(mover.post(f"/games/{game}/moves/", sent), 400, "invalid")
    assert list(error["detail"]["fields"]) == [misspelled]
    assert "expected_version" in error["detail"]["fields"][misspelled][0]
    assert misspelled in error["message"]
    assert move_count(game) == before and game_row(game).version == version


def test_every_unknown_field_of_a_move_is_named(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    mover, view = _mover(game, alice, bob)
    before = move_count(game)
    sent = {
        "command": {"type": "place", "number": view["legal_commands"][0]["command"]["number"]},
        "expected_version": view["version"],
        "seat": 1,
        "dryrun": True,
    }
    error = assert_error(mover.post(f"/games/{game}/moves/", sent), 400, "invalid")
    assert set(error["detail"]["fields"]) == {"seat", "dryrun"}
    assert move_count(game) == before


def test_a_nested_unknown_field_is_refused_at_create(alice: Player) -> None:
    before = Game.objects.count()
    sent = {"game_type": "vegas", "seats": 2, "clock": {"kind": "bank", "bankHours": 3}}
    error = assert_error(alice.post("/games/", sent), 400, "invalid")
    assert list(error["detail"]["fields"]["clock"]) == ["bankHours"]
    assert "bank_hours" in error["detail"]["fields"]["clock"]["bankHours"][0]
    assert Game.objects.count() == before


def test_chat_notes_and_webhooks_refuse_unknown_fields(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob])
    chat = alice.post(f"/games/{game}/chat/", {"text": "hi", "To": 1})
    assert_error(chat, 400, "invalid")
    assert not ChatMessage.objects.filter(game_id=game).exists()
    notes = alice.post(f"/games/{game}/notes/", {"text": "mine", "private": True})
    assert_error(notes, 400, "invalid")
    assert body(alice.get(f"/games/{game}/notes/"))["text"] == ""
    hook = alice.post("/webhooks/", {"url": "https://example.org/hook", "events": ["move"]})
    assert "events" in assert_error(hook, 400, "invalid")["detail"]["fields"]
    assert not Webhook.objects.filter(user=alice.user).exists()


def test_the_profile_takes_back_what_it_gave_but_not_a_stranger(alice: Player) -> None:
    """Read-only fields are fields: a client may send back the profile it read."""
    profile = body(alice.get("/me/"))
    assert alice.patch("/me/", {**profile, "time_zone": "Europe/Rome"}).status_code == 200
    refused = alice.patch("/me/", {"timezone": "Europe/Paris"})
    assert "time_zone" in assert_error(refused, 400, "invalid")["detail"]["fields"]["timezone"][0]
    assert body(alice.get("/me/"))["time_zone"] == "Europe/Rome"
    # A read-only field is let through, never suggested: "nmae" was told to send "name",
    # which is then ignored (found by review).
    refused = alice.patch("/me/", {"nmae": "Alice B"})
    said = assert_error(refused, 400, "invalid")["detail"]["fields"]["nmae"][0]
    assert "Did you mean" not in said and "display_name" in said
    assert "name" not in said.split("The fields here: ")[1].rstrip(".").split(", ")


def test_a_vegas_number_as_text_is_refused_in_json(alice: Player, bob: Player) -> None:
    """api.md: an integer is a JSON integer ("3" refused). Vegas's JSON door took digits,
    which are the text door's (``place 3``), and played the move."""
    game = start_game(alice, [bob])
    mover, view = _mover(game, alice, bob)
    number = view["legal_commands"][0]["command"]["number"]
    before, version = move_count(game), game_row(game).version
    sent = {"command": {"type": "place", "number": str(number)}, "expected_version": version}
    error = assert_error(mover.post(f"/games/{game}/moves/", sent), 400, "malformed_command")
    assert "JSON integer" in error["message"], error
    assert move_count(game) == before and game_row(game).version == version
