"""A whole game of Lords of Vegas through the services: people and bots to the end, then the
replay from the seed matches every event and the final snapshot."""

from __future__ import annotations

import pytest

from games import services
from games.engines.registry import get_engine
from games.engines.rng import SeededRng
from games.models import Game

from .helpers import seat_to_act

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_a_game_with_a_person_and_bots_plays_to_the_end(
    make_game, ada, bob, assert_finished_games_replay
):
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    engine = get_engine("lords-of-vegas")
    game = make_game(ada, bob, bots=1, game_type="lords-of-vegas", seats=3)
    services.resign(game=game, user=bob)  # from here a bot plays bob's seat
    for turn in range(3000):
        if game.status != Game.Status.ACTIVE:
            break
        seat = seat_to_act(game)
        assert game.state is not None and seat.user == ada
        command = engine.bots["greedy"](game.state, seat.order, SeededRng("t", str(turn)))
        services.submit_command(
            game=game, user=ada, text=engine.format(command), expected_version=game.version
        )
    assert game.status == Game.Status.FINISHED
    assert game.outcome["placings"][-1]["seat"] == game.seats.get(user=bob).order
    assert assert_finished_games_replay() == 1
