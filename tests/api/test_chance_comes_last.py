"""A roll or a turned card is never tried and taken back (found by a privacy test): a
submission of several commands was applied on a copy, all or nothing, and a later command's
refusal told what an earlier gamble had rolled; a command's dice depend on its place in the
log, so a player could shift that place with free commands and probe until the roll suited
them. A command that shows chance must come last, refused the same way whatever it drew;
a trade's trial on its proposal says nothing of what follows a roll."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.lords_of_vegas import from_position
from games.models import Game, TradeOffer
from tests.api.helpers import assert_error, body, game_row, make_player, start_game

pytestmark = pytest.mark.django_db

GAMBLING = """
seats: {first} {second}
turn: {first}
money: {first}=4 {second}=30
lots: A3={first} A6={first}
tiles: B1=vega^2:{second}3 B2=vega^2:{second}2
"""
"""The first seat to play has $4m: after a lost $4m bet it cannot pay for anything."""


@pytest.fixture
def table() -> Any:
    """A Lords of Vegas game at GAMBLING, the first player to act and the other."""
    players = [make_player(), make_player()]
    game_id = start_game(players[0], [players[1]], "lords-of-vegas")
    game = game_row(game_id)
    colours = _state(game_id)["colours"]
    state = from_position(GAMBLING.format(first=colours[0], second=colours[1]))
    Game.objects.filter(pk=game_id).update(state={**state, "seed": game.seed})
    first = next(p for p in players if game.seats.get(order=0).user_id == p.user.pk)
    other = next(p for p in players if p is not first)
    return game_id, first, other, colours


def _state(game_id: int) -> dict[str, Any]:
    state = game_row(game_id).state
    assert state is not None
    return dict(state)


def _at_place(game_id: int, n: int) -> None:
    """The state as if ``n`` commands had been logged: the next command's dice change."""
    Game.objects.filter(pk=game_id).update(state={**_state(game_id), "n": n})


def test_a_gamble_followed_by_another_command_is_refused_the_same_whatever_it_rolls(table):
    game_id, first, _other, _colours = table
    answers = set()
    for n in range(12):  # twelve places in the log: the gamble wins at some, loses at others
        _at_place(game_id, n)
        before = game_row(game_id)
        refused = first.post(
            f"/games/{game_id}/moves/", {"command": "gamble B1 4; build A3 vega; end"}
        )
        error = assert_error(refused, 400, "chance_not_last")
        answers.add(error["message"])
        after = game_row(game_id)
        assert (after.version, after.state) == (before.version, before.state)  # nothing played
    assert answers == {
        "command 1 of 3: gamble B1 4 rolls dice or turns a card, so it must be the last "
        "command you send: send the ones after it once you see what it drew. Nothing was "
        "played."
    }
    played = first.post(f"/games/{game_id}/moves/", {"command": "gamble B1 4"})
    assert played.status_code == 201, played.content
    assert [m["text"] for m in body(played)["moves"]] == ["gamble B1 4"]


def test_commands_that_draw_nothing_still_go_together(table):
    game_id, first, _other, _colours = table
    Game.objects.filter(pk=game_id).update(state={**_state(game_id), "money": [60, 30]})
    played = first.post(f"/games/{game_id}/moves/", {"command": "build A3 vega; build A6 vega"})
    assert played.status_code == 201, played.content
    assert len(body(played)["moves"]) == 2


def test_a_trade_proposal_says_nothing_of_what_follows_a_roll(table):
    game_id, _first, other, colours = table
    trade = f"trade do gamble B1 4, {colours[0]} pays {colours[1]} 8"
    for n in range(12):
        _at_place(game_id, n)
        TradeOffer.objects.filter(game_id=game_id).delete()
        # The other player, not on turn, asks about the active player's gamble: before the
        # fix a lost roll answered "as things stand it would stop: ... has only $0m".
        proposed = other.post(f"/games/{game_id}/trades/", {"command": trade})
        assert proposed.status_code == 201, proposed.content
