"""Whole games played through the REST API by a script for every seat, each with its own
token: Vegas, and Lords of Vegas once its engine exists."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engines import registry
from games.services import verify_game
from tests.api.helpers import Player, body, game_row, make_player, play_to_the_end, start_game

pytestmark = pytest.mark.django_db


def _engine_available(slug: str) -> str | None:
    """None when the engine imports, else why not."""
    try:
        registry.get_engine(slug)
    except Exception as exc:  # a half-written engine package: skip with the reason
        return f"{type(exc).__name__}: {exc}"
    return None


def _finished(game_id: int, players: list[Player], final: dict[str, Any]) -> None:
    assert final["status"] == "finished"
    assert final["seed"], "the seed is revealed at the end"
    assert final["outcome"]["placings"]
    game = game_row(game_id)
    assert verify_game(game=game).ok
    for player in players:
        verified = player.get(f"/games/{game_id}/verify/")
        assert verified.status_code == 200, verified.content
        assert body(verified)["ok"] is True
    listed = body(players[0].get("/games/", {"status": "finished"}))
    assert game_id in [g["id"] for g in listed]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_whole_game_of_vegas_is_played_through_the_api(players: int) -> None:
    seats = [make_player() for _ in range(players)]
    game_id = start_game(seats[0], seats[1:], "vegas")
    rng = random.Random(players)
    final = play_to_the_end(game_id, seats, choose=rng.choice)
    _finished(game_id, seats, final)
    log = body(seats[0].get(f"/games/{game_id}/moves/"))
    assert log["version"] == final["version"]
    assert [m["seq"] for m in log["moves"]] == list(range(final["version"] + 1))
    assert all(m["source"] in ("api", "system") for m in log["moves"])
    assert all(len(m["described"]) == len(m["events"]) for m in log["moves"])


def test_a_whole_game_of_vegas_with_neutral_dice_as_json_commands() -> None:
    seats = [make_player() for _ in range(3)]
    game_id = start_game(seats[0], seats[1:], "vegas", {"variant": "neutral"})
    final = play_to_the_end(game_id, seats, as_json=True)
    _finished(game_id, seats, final)


def test_a_whole_game_of_lords_of_vegas_is_played_through_the_api() -> None:
    reason = _engine_available("lords-of-vegas")
    if reason is not None:
        pytest.skip(f"the Lords of Vegas engine is not available yet ({reason})")
    seats = [make_player() for _ in range(4)]
    game_id = start_game(seats[0], seats[1:], "lords-of-vegas")
    rng = random.Random(4)
    final = play_to_the_end(game_id, seats, choose=rng.choice, max_moves=20_000)
    _finished(game_id, seats, final)
