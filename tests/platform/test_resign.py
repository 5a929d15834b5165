"""Resigning: a bot plays the seat on and the player ranks last; at two players it ends."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Move

from .helpers import legal_text, user_to_act

pytestmark = pytest.mark.django_db


def test_at_two_players_the_other_one_wins(make_game, ada, bob):
    game = make_game(ada, bob)
    services.resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at
    bob_seat, ada_seat = game.seats.get(user=bob), game.seats.get(user=ada)
    assert game.outcome["winners"] == [ada_seat.order]
    assert game.outcome["ended_by"] == "resignation"
    last = game.outcome["placings"][-1]
    assert (last["seat"], last["rank"], last["resigned"]) == (bob_seat.order, 2, True)
    move = Move.objects.get(game=game, seq=game.version)
    assert (move.command, move.text, move.seat) == (None, "resign", bob_seat)
    assert services.verify_game(game=game).ok


def test_with_more_players_a_bot_takes_the_seat(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy)
    services.resign(game=game, user=user_to_act(game))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    resigned = game.seats.get(resigned=True)
    assert resigned.bot == "greedy" and resigned.user is not None
    # the bot played the resigned seat's turn at once: the game waits on a person
    assert user_to_act(game) != resigned.user
    assert Move.objects.filter(game=game, seat=resigned, source="bot").exists()


def test_a_resigned_player_ranks_last_at_the_end(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy)
    services.resign(game=game, user=bob)
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=user_to_act(game), text=legal_text(game))
    placings = game.outcome["placings"]
    bob_order = game.seats.get(user=bob).order
    assert placings[-1]["seat"] == bob_order and placings[-1]["resigned"]
    assert placings[-1]["rank"] == 3
    assert bob_order not in game.outcome["winners"]
    assert services.verify_game(game=game).ok


def test_resigning_twice_changes_nothing(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy)
    services.resign(game=game, user=cy)
    version = Game.objects.get(pk=game.pk).version
    services.resign(game=game, user=cy)
    assert Game.objects.get(pk=game.pk).version == version


def test_only_a_seated_player_resigns_a_running_game(make_game, ada, bob, dee):
    game = make_game(ada, bob)
    with pytest.raises(services.NotAllowed):
        services.resign(game=game, user=dee)
    open_game = make_game(ada, bob, start=False)
    with pytest.raises(services.GameNotActive):
        services.resign(game=open_game, user=bob)
