"""``rows.move_transaction``: on PostgreSQL a move's ``BEGIN`` goes with its first statement
and its ``COMMIT`` with its writes (two round trips fewer, issue 15), and it is still one
transaction: all or nothing, ``on_commit`` after the commit, nothing after the COMMIT.

These tests run outside a test transaction (``transaction=True``): inside one, the move's
block is a savepoint and nothing is folded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction

from games import services
from games.models import Game, Move, Seat
from games.services import rows

from .helpers import illegal_text, legal_text, seat_to_act

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The query strings that reach the driver, as the server gets them."""
    found: list[str] = []
    execute = psycopg.ClientCursor.execute

    def recording(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        found.append(str(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.ClientCursor, "execute", recording)
    yield found


def test_a_move_is_two_round_trips_its_begin_and_commit_folded_in(make_game, ada, bob, sent):
    game = make_game(ada, bob)
    seat, text = seat_to_act(game), legal_text(game)
    committed: list[bool] = []
    sent.clear()
    services.submit_command(game=game, user=seat.user, text=text)
    # (then the announcement, drained after the commit: tests run tasks eagerly)
    begin, write = sent[:2]
    assert begin.startswith("BEGIN; SELECT") and "FOR UPDATE" in begin
    assert write.startswith("WITH ") and write.endswith("; COMMIT")
    assert not [s for s in sent if s.strip().upper() in ("BEGIN", "COMMIT")]
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    game.refresh_from_db()
    assert game.version == 1 and Move.objects.filter(game=game, seq=1).exists()
    transaction.on_commit(lambda: committed.append(True))  # (autocommit: runs at once)
    assert committed == [True]


def test_a_refused_move_writes_nothing_and_leaves_the_connection_clean(make_game, ada, bob):
    game = make_game(ada, bob)
    seat = seat_to_act(game)
    with pytest.raises(services.IllegalMove):
        services.submit_command(game=game, user=seat.user, text=illegal_text(game))
    version = Game.objects.get(pk=game.pk).version
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert Move.objects.filter(game=game, seq=version + 1).count() == 0
    result = services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    assert result.version == version + 1


def test_on_commit_runs_after_the_commit_and_a_returning_player_is_written_with_it(
    make_game, ada, bob
):
    """A player back from missed deadlines: the reset goes with the move's writes, before
    its COMMIT (a statement after it would be outside the transaction)."""
    game = make_game(ada, bob)
    seat = seat_to_act(game)
    Seat.objects.filter(pk=seat.pk).update(timeouts_in_a_row=2)
    seen: list[int] = []

    def after() -> None:  # in a new connection's view: the move is committed
        seen.append(Game.objects.get(pk=game.pk).version)

    with rows.move_transaction():
        transaction.on_commit(after)
        locked = rows.locked_game_with_seats(game.pk)
        assert locked is not None and seen == []
    assert seen == [0]
    services.submit_command(game=game, user=seat.user, text=legal_text(game))
    assert Seat.objects.get(pk=seat.pk).timeouts_in_a_row == 0


def test_a_statement_after_the_commit_is_refused(make_game, ada, bob):
    game = make_game(ada, bob)
    refused = pytest.raises(AssertionError, match="after the move's COMMIT")
    with refused, rows.move_transaction():
        locked = rows.locked_game_with_seats(game.pk)
        assert locked is not None
        with rows.one_trip():
            rows.update(locked.game, ["turn_hours"])
            rows.update(locked.seats[0], ["timeouts"])
        Game.objects.filter(pk=game.pk).exists()


def test_inside_a_callers_own_transaction_nothing_is_folded(make_game, ada, bob):
    """A caller who turned autocommit off has a transaction open: the block is a savepoint
    in it, and the move commits with the caller (found by review: turning psycopg's
    autocommit on failed there)."""
    game = make_game(ada, bob)
    seat, text = seat_to_act(game), legal_text(game)
    transaction.set_autocommit(False)
    try:
        services.submit_command(game=game, user=seat.user, text=text)
        transaction.rollback()
    finally:
        transaction.set_autocommit(True)
    assert Game.objects.get(pk=game.pk).version == 0


def test_an_executemany_first_begins_the_transaction_on_its_own(make_game, ada, bob):
    game = make_game(ada, bob)
    with rows.move_transaction(), connection.cursor() as cursor:
        cursor.executemany(
            "UPDATE games_game SET turn_hours = %s WHERE id = %s", [(5, game.pk), (6, game.pk)]
        )
        status = connection.connection.info.transaction_status
    assert status == psycopg.pq.TransactionStatus.INTRANS
    assert Game.objects.get(pk=game.pk).turn_hours == 6


def test_moves_go_on_on_a_connection_opened_again(make_game, ada, bob, sent):
    """``rows`` keeps one psycopg cursor per driver connection (issue 15): a connection
    closed and opened again gets a cursor of its own."""
    game = make_game(ada, bob)
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    user, text = seat_to_act(game).user, legal_text(game)
    connection.close()
    sent.clear()
    result = services.submit_command(game=game, user=user, text=text)
    assert result.version == 2 and Game.objects.get(pk=game.pk).version == 2
    move = [s for s in sent if "set_config" not in s]  # (a new connection's set-up first)
    assert move[0].startswith("BEGIN; SELECT") and move[1].endswith("; COMMIT")


def test_a_refusal_by_the_database_on_the_kept_cursor_is_djangos_and_harms_nothing(
    make_game, ada, bob
):
    """An error of a statement of ``rows`` comes out as Django's (``submit_command`` and
    others catch ``django.db.IntegrityError``), is logged as Django's cursor logs it, and
    the statements after it run."""
    from django.db import IntegrityError
    from django.test.utils import CaptureQueriesContext

    game = make_game(ada, bob)
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    again = Move.objects.get(game=game, seq=1)
    again.pk, again._state.adding = None, True
    with CaptureQueriesContext(connection) as queries, pytest.raises(IntegrityError):
        rows.insert([again])  # (the log's seq 1 is taken)
    assert [q["sql"][:25] for q in queries] == ['INSERT INTO "games_move" ']
    result = services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    assert result.version == 2


def test_the_kept_cursors_statements_are_logged_when_queries_are(make_game, ada, bob):
    """The tests' query counts and ``DEBUG`` see the statements of ``rows`` as Django's
    cursor would log them."""
    from django.test.utils import CaptureQueriesContext

    game = make_game(ada, bob)
    user, text = seat_to_act(game).user, legal_text(game)
    with CaptureQueriesContext(connection) as queries:
        services.submit_command(game=game, user=user, text=text)
    # (Django logs its own markers too: "BEGIN" and "COMMIT" around a transaction)
    logged = [q["sql"] for q in queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert logged[0].startswith("BEGIN; SELECT") and "FOR UPDATE" in logged[0]
    assert logged[1].startswith("WITH ") and logged[1].endswith("; COMMIT")


def test_each_statement_keeps_its_cursor_and_its_adapters(make_game, ada, bob):
    """``rows`` runs each statement on a cursor kept for its text (issue 15: psycopg keeps a
    cursor's adapters while it runs the same query again): a second move finds the first's
    cursors with their adapters, and the cursors kept per connection stay bounded."""
    game = make_game(ada, bob)
    db = rows._db()
    for cursor in rows._kept.get(db, (None, None, {}))[2].values():  # (earlier tests' moves)
        cursor.close()
    rows._kept.pop(db, None)
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    kept = dict(rows._kept[db][2])
    adapters = {sql: (cursor._tx, cursor._query) for sql, cursor in kept.items()}
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    now = rows._kept[db][2]
    assert list(now) == list(kept)  # the second move sent the first's texts, no other
    move = [sql for sql in kept if sql.startswith("BEGIN; SELECT") or sql.startswith("WITH ")]
    assert len(move) == 2
    for sql in move:  # run again, on the same cursor, with the same adapters
        assert now[sql] is kept[sql] and now[sql]._tx is adapters[sql][0]
        assert now[sql]._query is not adapters[sql][1]
    for n in range(rows.CURSORS + 5):
        with rows._cursor(db) as cursor:
            cursor.execute(f"SELECT {n}", [])
            assert cursor.fetchone() == (n,)
    assert len(rows._kept[db][2]) == rows.CURSORS
    assert all(cursor.closed for cursor in kept.values())  # the least recently used went
    # A statement used again is kept over those used since it was first made.
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    texts = list(rows._kept[db][2])[-2:]  # the move's read and write, made again
    with rows._cursor(db) as cursor:
        for n in range(rows.CURSORS - 2):
            cursor.execute(f"SELECT {n} + 100", [])
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    assert list(rows._kept[db][2])[-2:] == texts  # (the same two texts, used again)
    with rows._cursor(db) as cursor:
        cursor.execute("SELECT 1000", [])
        cursor.execute("SELECT 1001", [])
    assert all(sql in rows._kept[db][2] for sql in texts)
