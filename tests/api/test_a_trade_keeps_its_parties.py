"""A trade runs only with the players who accepted it (found by a security test): an offer
with a step of the active player's (``do gamble B2 5``) and a time of its own outlived its
turn, and the last acceptance made whoever was active then bet, a player who never saw the
offer. Such an offer now lapses when its turn ends, and an acceptance that finds the parties
changed closes the offer instead of running it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.engines.lords_of_vegas import from_position
from games.models import Game, TradeOffer
from tests.api.helpers import Player, assert_error, body, game_row, make_player, start_game

pytestmark = pytest.mark.django_db

TABLE = """
seats: {cy} {ada} {bob}
turn: {ada}
money: {cy}=30 {ada}=30 {bob}=30
tiles: B2=vega^2:{bob}3
"""
"""Cy, Ada and Bob in seat order, Ada to act; Bob has a casino at B2."""


@pytest.fixture
def table() -> dict[str, Any]:
    """A Lords of Vegas game at TABLE: its id and its players by name."""
    players = [make_player("cy"), make_player("ada"), make_player("bob")]
    game_id = start_game(players[0], players[1:], "lords-of-vegas")
    game = game_row(game_id)
    assert game.state is not None
    colours = game.state["colours"]
    state = from_position(TABLE.format(cy=colours[0], ada=colours[1], bob=colours[2]))
    Game.objects.filter(pk=game_id).update(state={**state, "seed": game.seed})
    by_user = {s.user_id: s.order for s in game.seats.all()}
    seated = {by_user[p.user.pk]: p for p in players}
    return {"id": game_id, "cy": seated[0], "ada": seated[1], "bob": seated[2]}


def _end(player: Player, game_id: int) -> None:
    ended = player.post(f"/games/{game_id}/moves/", {"command": "end"})
    assert ended.status_code == 201, ended.content


def _gamble_offer(table: dict[str, Any]) -> dict[str, Any]:
    """Bob asks Ada, the active player, to bet $5m at his casino, the offer to last days."""
    at = (timezone.now() + timedelta(days=6)).isoformat()
    proposed = table["bob"].post(
        f"/games/{table['id']}/trades/", {"command": "trade do gamble B2 5", "expires_at": at}
    )
    assert proposed.status_code == 201, proposed.content
    offer: dict[str, Any] = body(proposed)
    assert offer["parties"] == [1, 2]
    return offer


def _seen(table: dict[str, Any]) -> tuple[int, list[int]]:
    """What the players see of the game: its version (the log's length) and the money."""
    game = game_row(table["id"])
    assert game.state is not None
    return game.version, list(game.state["money"])


def _offer(table: dict[str, Any], offer_id: int) -> dict[str, Any]:
    listed = body(table["cy"].get(f"/games/{table['id']}/trades/"))
    return next(o for o in listed if o["id"] == offer_id)


def test_an_offer_of_the_active_players_action_lapses_with_its_turn(table: dict[str, Any]) -> None:
    offer = _gamble_offer(table)
    _end(table["ada"], table["id"])
    assert _offer(table, offer["id"])["status"] == "expired"
    _end(table["bob"], table["id"])  # Cy's turn now
    before = _seen(table)

    refused = table["ada"].post(f"/games/{table['id']}/trades/{offer['id']}/accept/")

    assert_error(refused, 409, "offer_closed")
    assert _seen(table) == before  # Cy bet nothing, Bob won nothing, nothing was logged
    log = body(table["cy"].get(f"/games/{table['id']}/moves/"))["moves"]
    assert not any(m["text"].startswith("trade") for m in log)


def test_an_offer_whose_parties_changed_is_closed_not_run(table: dict[str, Any]) -> None:
    # An offer that outlived its turn (made before the rule above): the acceptance closes it.
    offer = _gamble_offer(table)
    TradeOffer.objects.filter(pk=offer["id"]).update(turn="")
    _end(table["ada"], table["id"])
    _end(table["bob"], table["id"])  # Cy's turn now
    assert _offer(table, offer["id"])["status"] == "open"
    before = _seen(table)

    refused = table["ada"].post(f"/games/{table['id']}/trades/{offer['id']}/accept/")

    error = assert_error(refused, 409, "offer_closed")
    assert error["message"] == (
        f"trade offer #{offer['id']} lapsed: the turn changed and it would now involve other "
        "players than those asked; propose a new offer"
    )
    assert _seen(table) == before
    closed = _offer(table, offer["id"])
    assert (closed["status"], closed["message"], closed["move"]) == ("expired", "parties", None)
    again = table["ada"].post(f"/games/{table['id']}/trades/{offer['id']}/accept/")
    assert_error(again, 409, "offer_closed")


def test_an_offer_of_the_active_players_action_runs_within_its_turn(
    table: dict[str, Any],
) -> None:
    offer = _gamble_offer(table)
    accepted = table["ada"].post(f"/games/{table['id']}/trades/{offer['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    assert body(accepted)["status"] == "executed"
