"""Every refused submission raises its typed error and writes nothing at all."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game

from .helpers import (
    at_position,
    footprint,
    illegal_text,
    legal_text,
    seat_to_act,
    user_not_to_act,
    user_to_act,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_game, ada, bob):
    game = make_game(ada, bob)
    # one move in, so that the version and the snapshot are not the initial ones
    services.submit_command(game=game, user=user_to_act(game), text=legal_text(game))
    return game


def refused(game, error, **kwargs):
    before = footprint(game)
    with pytest.raises(error) as caught:
        services.submit_command(game=game, **kwargs)
    assert footprint(game) == before
    return caught.value


def test_it_refuses_a_move_out_of_turn(game):
    waiting = seat_to_act(game)
    error = refused(game, services.NotYourTurn, user=user_not_to_act(game), text="place 1")
    assert error.status == 409
    assert waiting.name in error.message and waiting.colour.capitalize() in error.message
    assert error.extra["to_act"] == [waiting.order]


def test_it_refuses_a_player_who_is_not_seated(game, cy):
    error = refused(game, services.NotAllowed, user=cy, text=legal_text(game))
    assert error.status == 403
    assert f"#{game.pk}" in error.message and "not seated" in error.message


def test_it_refuses_an_anonymous_user(game):
    from django.contrib.auth.models import AnonymousUser

    refused(game, services.NotAllowed, user=AnonymousUser(), text=legal_text(game))


def test_it_refuses_a_malformed_command(game):
    error = refused(game, services.MalformedCommand, user=user_to_act(game), text="dance 9")
    assert isinstance(error, services.IllegalMove) and error.status == 400
    assert "dance" in error.message
    refused(game, services.MalformedCommand, user=user_to_act(game), command={"type": "x"})
    refused(game, services.MalformedCommand, user=user_to_act(game), text=" ; \n ")


def test_it_refuses_an_illegal_command_with_the_engines_message(game):
    text = illegal_text(game)  # (before the footprint: it may play on first)
    error = refused(game, services.IllegalMove, user=user_to_act(game), text=text)
    assert "rolled" in error.message and error.extra["command"] == text


def test_it_refuses_a_stale_version_and_says_the_current_one(game):
    error = refused(
        game,
        services.StaleVersion,
        user=user_to_act(game),
        text=legal_text(game),
        expected_version=0,
    )
    assert error.status == 409 and error.extra["current_version"] == 1


def test_it_refuses_text_and_json_together_or_neither(game):
    user = user_to_act(game)
    refused(game, services.InvalidRequest, user=user)
    refused(game, services.InvalidRequest, user=user, text="place 1", command={"type": "place"})
    refused(game, services.InvalidRequest, user=user, text=legal_text(game), source="pigeon")


def test_a_batch_is_all_or_nothing_and_names_the_failing_command(make_game, ada, bob):
    # the first command is legal, the second builds on a lot of the other player's
    game = make_game(ada, bob, game_type="lords-of-vegas")
    at_position(game, "seats: {0} {1}\nturn: {0}\nmoney: {0}=60\nlots: A3={0} A5={1}\n")
    error = refused(
        game,
        services.ServiceError,
        user=game.seats.get(order=0).user,
        text="build A3 vega; build A5 vega",
    )
    assert error.extra["index"] == 2
    assert error.message.startswith("command 2 of 2")


def test_it_refuses_a_game_that_has_not_started(make_game, ada, bob):
    game = make_game(ada, bob, start=False)
    error = refused(game, services.GameNotActive, user=ada, text="place 1")
    assert "not started" in error.message and "creator" in error.message


def test_it_refuses_a_finished_game(make_game, ada):
    game = make_game(ada, bots=1)
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=ada, text=legal_text(game))
    error = refused(game, services.GameNotActive, user=ada, text="place 1")
    assert error.status == 409
    assert "finished" in error.message and "no more moves" in error.message


def test_it_refuses_a_resigned_player(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy)
    services.resign(game=game, user=cy)
    error = refused(game, services.NotAllowed, user=cy, text="place 1")
    assert "resigned" in error.message and "bot" in error.message


def test_it_refuses_a_trade_submitted_as_a_move(make_game, ada, bob):
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    from games.engines.registry import get_engine

    game = make_game(ada, bob, game_type="lords-of-vegas")
    seat = game.seats.get(user=user_to_act(game))
    other = game.seats.exclude(pk=seat.pk).get()
    trade = {
        "type": "trade",
        "steps": [{"type": "pay", "payer": seat.colour, "payee": other.colour, "amount": 1}],
    }
    get_engine("lords-of-vegas").command_from_json(trade)
    error = refused(game, services.IllegalMove, user=seat.user, command=trade)
    assert "trade" in error.message


def test_it_refuses_too_many_commands_and_says_how_many(game):
    text = "; ".join(["place 1"] * 51)
    error = refused(game, services.InvalidRequest, user=user_to_act(game), text=text)
    assert "51 commands" in error.message and "at most 50" in error.message
