"""Bots play their seats synchronously after a human move; a game plays to its end."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Move

from .helpers import legal_text

pytestmark = pytest.mark.django_db


def play_to_the_end(game, user):
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=user, text=legal_text(game))
    return game


def test_a_game_against_bots_plays_to_the_end(make_game, ada, assert_finished_games_replay):
    game = play_to_the_end(make_game(ada, bots=2, seats=3), ada)
    assert game.status == Game.Status.FINISHED and game.finished_at
    assert game.deadline is None
    placings = game.outcome["placings"]
    assert sorted(p["seat"] for p in placings) == [0, 1, 2]
    assert placings[0]["rank"] == 1 and game.outcome["winners"]
    sources = set(Move.objects.filter(game=game).values_list("source", flat=True))
    assert sources == {"system", "api", "bot"}
    assert not game.seats.filter(to_act=True).exists()
    assert assert_finished_games_replay() == 1
