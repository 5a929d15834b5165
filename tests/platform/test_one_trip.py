"""``rows.one_trip``: a move's writes held and sent together (one statement on PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Announcement, Seat
from games.services import rows

pytestmark = pytest.mark.django_db


def test_two_reads_of_one_seat_each_write_their_own_fields(make_game, ada, bob):
    """One UPDATE per row, each field's value from the instance that named it (the clock
    refunds a vacation through one read of a seat and settles its bank through another)."""
    game = make_game(ada, bob)
    one = Seat.objects.get(game=game, order=0)
    other = Seat.objects.get(game=game, order=0)
    one.vacation_used = timedelta(hours=5)
    other.bank_left = timedelta(hours=7)
    other.remind_at = None
    with CaptureQueriesContext(connection) as queries, rows.one_trip():
        rows.update(one, ["vacation_used"])
        rows.update(other, ["bank_left", "remind_at"])
    assert len([q for q in queries if q["sql"].startswith("UPDATE")]) == 1
    seat = Seat.objects.get(pk=one.pk)
    assert (seat.vacation_used, seat.bank_left, seat.remind_at) == (
        timedelta(hours=5),
        timedelta(hours=7),
        None,
    )


def test_inserts_get_their_keys_at_the_end_in_order_and_updates_go_with_them(make_game, ada, bob):
    game = make_game(ada, bob)
    made = [Announcement(game=game, seqs=[n]) for n in (7, 8, 9)]
    seat = Seat.objects.get(game=game, order=1)
    seat.timeouts = 2
    with CaptureQueriesContext(connection) as queries, rows.one_trip():
        rows.insert(made)
        rows.insert([Announcement(game=game, seqs=[10])])
        rows.update(seat, ["timeouts"])
        assert all(a.pk is None for a in made)  # held
    assert [Announcement.objects.get(pk=a.pk).seqs for a in made] == [[7], [8], [9]]
    assert Seat.objects.get(pk=seat.pk).timeouts == 2
    if connection.vendor == "postgresql":
        assert len(queries) == 1


def test_nothing_is_written_when_the_block_raises(make_game, ada, bob):
    game = make_game(ada, bob)
    seat = Seat.objects.get(game=game, order=1)
    seat.timeouts = 3
    with pytest.raises(RuntimeError), rows.one_trip():
        rows.insert([Announcement(game=game, seqs=[7])])
        rows.update(seat, ["timeouts"])
        raise RuntimeError
    assert Seat.objects.get(pk=seat.pk).timeouts == 0
    assert not Announcement.objects.filter(game=game, seqs=[7]).exists()


def test_blocks_do_not_nest() -> None:
    with rows.one_trip(), pytest.raises(AssertionError), rows.one_trip():
        pass


def test_the_locked_read_makes_the_instances_the_orm_makes(make_game, ada, bob):
    """``rows`` makes the game, its seats and their players without ``Model.__init__``
    (issue 15): each instance has the ORM's values and state, and its related objects."""
    game = make_game(ada, bob, bots=1)
    locked = rows.locked_game_with_seats(game.pk)
    assert locked is not None
    orm_game = type(game).objects.get(pk=game.pk)
    orm_seats = list(Seat.objects.filter(game=game).select_related("user").order_by("order"))

    def values(obj: object) -> dict[str, object]:
        return {k: v for k, v in vars(obj).items() if not k.startswith("_")}

    assert values(locked.game) == values(orm_game)
    assert [values(s) for s in locked.seats] == [values(s) for s in orm_seats]
    for mine, theirs in zip(locked.seats, orm_seats, strict=True):
        assert (mine._state.adding, mine._state.db) == (False, theirs._state.db)
        assert mine.game is locked.game
        if theirs.user is None:
            assert mine.user is None
        else:
            assert mine.user is not None and values(mine.user) == values(theirs.user)
            assert not mine.user._state.adding
    assert locked.offers_may_lapse is False
