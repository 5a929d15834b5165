"""A private game is seen by its players, its creator, staff, and the people an invitation
still waits on; anyone else gets the one refusal of a private game, whatever they ask of it
(its view, its log, a move, a resignation) and before anything of its state."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from tests.api.helpers import Player, assert_error, body

pytestmark = pytest.mark.django_db


def _private(alice: Player) -> Game:
    return services.create_game(creator=alice.user, game_type="vegas", seats=3, private=True)


def _started(game: Game, alice: Player) -> None:
    services.add_bot(game=game, by=alice.user)
    services.start_game(game=game, by=alice.user)


def _refused_as_private(answer: Any, game: Game) -> None:
    error = assert_error(answer, 403, "not_allowed")
    assert error["message"] == f"game #{game.pk} is private", error


def test_an_invitation_waiting_opens_the_game(alice: Player, bob: Player) -> None:
    game = _private(alice)
    services.invite(game=game, by=alice.user, email=bob.user.email)
    _started(game, alice)
    assert bob.get(f"/games/{game.pk}/").status_code == 200


def test_a_withdrawn_invitation_opens_nothing(alice: Player, bob: Player) -> None:
    game = _private(alice)
    invitation = services.invite(game=game, by=alice.user, email=bob.user.email)
    services.withdraw_invitation(game=game, invitation=invitation.pk, by=alice.user)
    _started(game, alice)
    _refused_as_private(bob.get(f"/games/{game.pk}/"), game)
    _refused_as_private(bob.get(f"/games/{game.pk}/moves/"), game)


def test_a_declined_invitation_opens_nothing(alice: Player, bob: Player) -> None:
    game = _private(alice)
    invitation = services.invite(game=game, by=alice.user, email=bob.user.email)
    services.decline_invitation(token=invitation.token, user=bob.user)
    _refused_as_private(bob.get(f"/games/{game.pk}/"), game)
    _refused_as_private(bob.get(f"/games/{game.pk}/moves/"), game)


def test_a_stranger_s_move_is_refused_as_private_before_the_game_s_state(
    alice: Player, carol: Player
) -> None:
    game = _private(alice)
    _refused_as_private(carol.post(f"/games/{game.pk}/moves/", {"command": "roll"}), game)
    _started(game, alice)
    _refused_as_private(carol.post(f"/games/{game.pk}/moves/", {"command": "roll"}), game)
    services.resign(game=game, user=alice.user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    _refused_as_private(carol.post(f"/games/{game.pk}/moves/", {"command": "roll"}), game)


def test_a_stranger_to_a_public_game_is_told_they_are_not_seated(
    alice: Player, carol: Player
) -> None:
    game = services.create_game(creator=alice.user, game_type="vegas", seats=3)
    error = assert_error(carol.post(f"/games/{game.pk}/moves/", {"command": "roll"}), 403)
    assert "you are not seated in game" in error["message"], error


def test_a_seated_player_is_still_told_the_game_has_not_started(alice: Player) -> None:
    game = _private(alice)
    answer = alice.post(f"/games/{game.pk}/moves/", {"command": "roll"})
    assert "has not started yet" in body(answer)["error"]["message"]
