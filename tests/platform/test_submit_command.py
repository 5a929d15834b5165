"""Submitting commands: the Move, the snapshot and the version are written together."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engines.registry import get_engine
from games.models import Announcement, Move

from .helpers import (
    at_position,
    footprint,
    legal_text,
    seat_that_may_end_the_turn,
    seat_to_act,
    user_to_act,
)

pytestmark = pytest.mark.django_db


def test_it_applies_a_move_and_bumps_the_version(make_game, ada, bob):
    game = make_game(ada, bob)
    seat = seat_to_act(game)
    text = legal_text(game)
    result = services.submit_command(game=game, user=seat.user, text=text, source="web")
    assert (result.version, result.replayed) == (1, False)
    [move] = result.moves
    assert (move.seq, move.seat, move.text, move.source) == (1, seat, text, "web")
    assert move.command == get_engine("vegas").parse(text).to_json()
    assert move.events[0]["type"] == "place"
    game.refresh_from_db()
    assert game.version == 1 and game.state["n"] == 1
    assert Move.objects.get(game=game, seq=1).events == move.events


def test_it_accepts_the_json_form(make_game, ada, bob):
    game = make_game(ada, bob)
    number = int(legal_text(game).split()[-1])
    result = services.submit_command(
        game=game, user=user_to_act(game), command={"type": "place", "number": number}
    )
    assert result.moves[0].text == f"place {number}"


TWO_LOTS = """
seats: {0} {1}
turn: {0}
money: {0}=60 {1}=30
lots: A3={0} A6={0} A5={1}
"""
"""The first seat may build on two lots of its own."""


def test_it_applies_several_commands_in_order(make_game, ada, bob):
    game = make_game(ada, bob, game_type="lords-of-vegas")
    at_position(game, TWO_LOTS)
    version = game.version
    first, second = "build A3 vega", "build A6 vega"
    result = services.submit_command(
        game=game, user=game.seats.get(order=0).user, text=f"{first}; {second}"
    )
    assert [m.text for m in result.moves] == [first, second]
    assert [m.seq for m in result.moves] == [version + 1, version + 2]
    assert result.version == version + 2


def test_a_command_that_rolls_comes_last(make_game, ada, bob):
    """A Vegas placing is followed by the next roll: nothing may follow it in one
    submission (a refusal of what followed would tell the roll)."""
    game = make_game(ada, bob)
    seat = seat_to_act(game)
    before = footprint(game)
    with pytest.raises(services.IllegalMove) as refused:
        services.submit_command(game=game, user=seat.user, text=f"{legal_text(game)}; place 1")
    assert refused.value.code == "chance_not_last" and refused.value.extra["index"] == 1
    assert footprint(game) == before


def test_the_caller_instance_is_brought_up_to_date(make_game, ada, bob):
    game = make_game(ada, bob)
    services.submit_command(game=game, user=user_to_act(game), text=legal_text(game))
    assert game.version == 1


def test_a_turn_ends_without_a_query_for_offers_when_none_is_open(make_game, ada, bob):
    """The locked read says whether an open offer lapses with a turn: a Lords of Vegas move
    that ends a turn with no offer open reads no offers (issue 15); one open offer still
    lapses (tests/api/test_trades.py)."""
    game = make_game(ada, bob, game_type="lords-of-vegas")
    engine = get_engine(game.game_type)
    seat = seat_that_may_end_the_turn(game)
    marker = engine.turn_marker(game.state)
    with CaptureQueriesContext(connection) as queries:
        services.submit_command(game=game, user=seat.user, text="end")
    game.refresh_from_db()
    assert engine.turn_marker(game.state) != marker
    statements = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    # Offers come up once: the seats' read asks whether one lapses; nothing reads them.
    offers = [s for s in statements if "tradeoffer" in s]
    assert len(offers) == 1 and '"games_seat" s' in offers[0].split("; ")[-1]
    if connection.vendor == "postgresql":
        assert [s.split(" ", 1)[0] for s in statements] == ["SELECT", "WITH"]


def test_the_game_waits_on_the_next_player(make_game, ada, bob):
    game = make_game(ada, bob)
    before = seat_to_act(game)
    services.submit_command(game=game, user=before.user, text=legal_text(game))
    after = seat_to_act(game)
    assert list(game.seats.filter(to_act=True)) == [after]


def test_a_move_is_the_lock_one_read_and_one_write(make_game, ada, bob):
    """On PostgreSQL a move takes the game's lock with its read of the game, then reads its
    seats and players (and whether an offer may lapse), in one round trip (two statements:
    the seats' with a snapshot taken once the lock is held), and
    sends its writes (its Move, the game, the seats' flags and reminder moments, the outbox
    row) in one more (issue 15); the database has them all."""
    game = make_game(ada, bob)
    user, text = user_to_act(game), legal_text(game)
    waiting = seat_to_act(game)
    with CaptureQueriesContext(connection) as queries:
        services.submit_command(game=game, user=user, text=text, expected_version=0)
    statements = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    if connection.vendor == "postgresql":
        assert [s.split(" ", 1)[0] for s in statements] == ["SELECT", "WITH"]
        game_read, seats_read = statements[0].split("; ")
        assert game_read.endswith("FOR UPDATE") and '"games_game" g' in game_read
        assert "EXISTS" in seats_read and "JOIN" in seats_read
    game.refresh_from_db()
    assert game.version == 1 and Move.objects.filter(game=game, seq=1).exists()
    assert Announcement.objects.filter(game=game, seqs=[1]).exists()
    waiting.refresh_from_db()
    now_waiting = seat_to_act(game)
    assert now_waiting.to_act and now_waiting.remind_at is not None
    if now_waiting != waiting:
        assert not waiting.to_act and waiting.remind_at is None
