"""The answer to a submission says what the game waits on right after it, as the game view
would: whose turn, and the submitter's legal commands if it is still theirs."""

from __future__ import annotations

import random

import pytest

from tests.api.helpers import Player, body, start_game

pytestmark = pytest.mark.django_db


def _view(player: Player, game: int) -> dict:
    return body(player.get(f"/games/{game}/"))


@pytest.mark.parametrize("game_type", ["vegas", "lords-of-vegas"])
def test_the_answer_matches_the_game_view_after_the_move(
    alice: Player, bob: Player, game_type: str
) -> None:
    game = start_game(alice, [bob], game_type=game_type)
    players = {p.user.pk: p for p in (alice, bob)}
    rng = random.Random(3)
    view = next(v for v in (_view(alice, game), _view(bob, game)) if v["your_turn"])
    mover = players[view["seats"][view["your_seat"]]["user"]]
    chained = 0
    for n in range(12):
        plain = [c for c in view["legal_commands"] if not c["text"].startswith("trade")]
        sent = {"command": rng.choice(plain)["text"], "expected_version": view["version"]}
        answer = mover.post(f"/games/{game}/moves/", sent, HTTP_IDEMPOTENCY_KEY=f"m{n}")
        assert answer.status_code == 201, answer.content
        result = body(answer)
        after = _view(mover, game)
        assert result["version"] == after["version"]
        for key in ("status", "to_act", "your_turn", "legal_commands"):
            assert result[key] == after[key], key
        if result["status"] != "active":
            break
        if result["your_turn"]:
            # Enough to play on without reading the game again.
            view = {**result, "your_seat": after["your_seat"], "seats": after["seats"]}
            chained += 1
        else:
            nxt = after["seats"][result["to_act"][0]]["user"]
            mover = players[nxt]
            view = _view(mover, game)
            assert view["your_turn"]
    if game_type == "lords-of-vegas":
        assert chained > 0  # a turn there takes several commands


def test_an_answer_without_a_move_for_you_next_lists_no_commands(
    alice: Player, bob: Player
) -> None:
    game = start_game(alice, [bob])
    view = next(v for v in (_view(alice, game), _view(bob, game)) if v["your_turn"])
    mover = alice if view["seats"][view["your_seat"]]["user"] == alice.user.pk else bob
    sent = {"command": view["legal_commands"][0]["text"], "expected_version": view["version"]}
    result = body(mover.post(f"/games/{game}/moves/", sent))
    assert result["your_turn"] is False
    assert result["legal_commands"] == []
    assert result["to_act"] and view["your_seat"] not in result["to_act"]
