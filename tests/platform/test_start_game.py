"""Starting a game: seed and its public hash, a verifiable seating, the setup as Move 0."""

from __future__ import annotations

import pytest

from games import services
from games.engines.rng import SeededRng, seed_hash, shuffle
from games.models import Game, Move

pytestmark = pytest.mark.django_db


def test_it_creates_an_open_game_with_the_creator_seated(ada):
    game = services.create_game(creator=ada, game_type="vegas", seats=3, turn_hours=24)
    assert game.status == Game.Status.OPEN
    assert game.options == {}
    assert [s.user for s in game.seats.all()] == [ada]
    assert game.seed == "" and game.state is None


def test_it_refuses_bad_options(ada):
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=ada, game_type="vegas", options={"variant": "nope"})
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=ada, game_type="chess")
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=ada, game_type="vegas", seats=7)
    assert not Game.objects.exists()


def test_it_starts_with_a_secret_seed_and_a_public_hash(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy)
    assert game.status == Game.Status.ACTIVE
    assert len(game.seed) == 64 and game.seed_hash == seed_hash(game.seed)
    assert game.version == 0 and game.started_at and game.deadline
    setup = Move.objects.get(game=game)
    assert (setup.seq, setup.seat, setup.source, setup.command) == (0, None, "system", None)
    assert setup.events and setup.events[0]["type"] == "round_start"
    assert game.state["seed"] == game.seed
    assert game.options == {"variant": "standard"}  # normalised at the start


def test_options_are_normalised_for_the_players_who_came(ada, bob):
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    game = services.create_game(creator=ada, game_type="lords-of-vegas", seats=4)
    services.join_game(game=game, user=bob)
    services.start_game(game=game, by=ada)
    assert len(game.options["colours"]) == 2
    assert [s.colour for s in game.seats.order_by("order")] == game.options["colours"]


def test_it_draws_the_seating_from_the_seed(make_game, ada, bob, cy, dee):
    game = make_game(ada, bob, cy, dee)
    joined = [ada, bob, cy, dee]
    shuffle(SeededRng(game.seed, "seating"), joined)
    seats = list(game.seats.order_by("order"))
    assert [s.user for s in seats] == joined
    assert [s.order for s in seats] == [0, 1, 2, 3]
    assert [s.colour for s in seats] == ["red", "blue", "green", "yellow"]


def test_only_the_creator_starts_and_only_once(make_game, ada, bob):
    game = make_game(ada, bob, start=False)
    refusal = rf"only the creator of game #{game.pk} starts it \(or any of its players, "
    with pytest.raises(services.NotAllowed, match=refusal):
        services.start_game(game=game, by=bob)
    services.start_game(game=game, by=ada)
    with pytest.raises(services.GameNotActive):
        services.start_game(game=game, by=ada)
    assert Move.objects.filter(game=game).count() == 1


def test_it_refuses_to_start_alone(ada):
    game = services.create_game(creator=ada, game_type="vegas", seats=2)
    with pytest.raises(services.InvalidRequest):
        services.start_game(game=game, by=ada)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_a_bot_that_starts_plays_at_once(make_game, ada):
    game = make_game(ada, bots=3, seats=4)
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert moves[0].seq == 0
    assert game.version == moves[-1].seq
    assert all(m.source == "bot" for m in moves[1:])
    seat = game.seats.get(user=ada)
    assert seat.to_act  # the bots played until the game waits on ada
