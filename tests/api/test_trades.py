"""Trade offers through the API (Lords of Vegas): propose, list, pending decisions, accept
(executes through the engine), decline, withdraw."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import registry
from tests.api.helpers import Player, assert_error, body, move_count, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Player, bob: Player) -> dict[str, Any]:
    try:
        registry.get_engine("lords-of-vegas")
    except Exception as exc:
        pytest.skip(f"the Lords of Vegas engine is not available yet ({exc})")
    game_id = start_game(alice, [bob], "lords-of-vegas")
    view = body(alice.get(f"/games/{game_id}/"))
    colours = {s["name"]: s["colour"] for s in view["seats"]}
    return {"id": game_id, "alice": colours["alice"], "bob": colours["bob"]}


def _propose(player: Player, game: dict[str, Any], text: str) -> Any:
    return player.post(f"/games/{game['id']}/trades/", {"command": text})


def test_an_accepted_trade_executes_and_is_logged(
    game: dict[str, Any], alice: Player, bob: Player
) -> None:
    before = move_count(game["id"])
    proposed = _propose(alice, game, f"trade {game['alice']} pays {game['bob']} 1")
    assert proposed.status_code == 201, proposed.content
    offer = body(proposed)
    assert offer["status"] == "open" and offer["text"].startswith("trade")
    assert move_count(game["id"]) == before  # an offer is not a move

    listed = body(bob.get(f"/games/{game['id']}/trades/"))
    assert [o["id"] for o in listed] == [offer["id"]]
    pending = body(bob.get(f"/games/{game['id']}/decisions/"))
    assert [o["id"] for o in pending["trades"]] == [offer["id"]]
    assert body(alice.get(f"/games/{game['id']}/decisions/"))["trades"] == []

    accepted = bob.post(f"/games/{game['id']}/trades/{offer['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    assert body(accepted)["status"] == "executed"
    assert body(accepted)["move"] == before  # the next seq
    assert move_count(game["id"]) == before + 1
    log = body(alice.get(f"/games/{game['id']}/moves/", {"since": before - 1}))
    assert log["moves"][0]["text"].startswith("trade")


def test_a_trade_is_declined_or_withdrawn(
    game: dict[str, Any], alice: Player, bob: Player, carol: Player
) -> None:
    trade = f"trade {game['alice']} pays {game['bob']} 1"
    first = body(_propose(alice, game, trade))
    assert_error(carol.post(f"/games/{game['id']}/trades/{first['id']}/decline/"), 403)
    declined = bob.post(f"/games/{game['id']}/trades/{first['id']}/decline/")
    assert body(declined)["status"] == "declined"
    assert_error(bob.post(f"/games/{game['id']}/trades/{first['id']}/accept/"), 409)

    second = body(_propose(alice, game, trade))
    assert_error(carol.post(f"/games/{game['id']}/trades/{second['id']}/accept/"), 403)
    assert_error(bob.post(f"/games/{game['id']}/trades/{second['id']}/withdraw/"), 403)
    withdrawn = alice.post(f"/games/{game['id']}/trades/{second['id']}/withdraw/")
    assert body(withdrawn)["status"] == "withdrawn"


def test_a_move_is_not_a_trade_and_a_trade_is_not_a_move(
    game: dict[str, Any], alice: Player, bob: Player
) -> None:
    before = move_count(game["id"])
    assert_error(_propose(alice, game, "end"), 400, "illegal_move")
    trade = f"trade {game['alice']} pays {game['bob']} 1"
    for player in (alice, bob):
        response = player.post(f"/games/{game['id']}/moves/", {"command": trade})
        assert response.status_code in (400, 409), response.content
    assert move_count(game["id"]) == before
