"""Many workers submitting to one game at once: one command per version, a gapless log."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest
from django.db import connection, transaction

from games import services
from games.engines.registry import get_engine
from games.models import Game, Move

from .helpers import legal_text, seat_that_may_end_the_turn, seat_to_act

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    # a worker thread that dies (a deadlock, say) fails the test
    pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning"),
]

THREADS = 8


def _submit_at(game_id: int, barrier: threading.Barrier, index: int, results: list) -> None:
    """Read the game, then (all threads together) submit a legal command at that version."""
    try:
        game = Game.objects.get(pk=game_id)
        engine = get_engine(game.game_type)
        assert game.state is not None
        order = engine.to_act(game.state)[0]
        seat = game.seats.select_related("user").get(order=order)
        legal = engine.legal_commands(game.state, order)
        text = engine.format(legal[index % len(legal)])
        barrier.wait(timeout=10)
        try:
            result = services.submit_command(
                game=game_id, user=seat.user, text=text, expected_version=game.version
            )
            results.append(("applied", result.version))
        except services.StaleVersion as exc:
            results.append(("stale", exc.extra["current_version"], exc.status))
    except Exception as exc:  # pragma: no cover - reported by the assertion below
        results.append(("error", repr(exc)))
    finally:
        connection.close()


def test_exactly_one_conflicting_command_is_applied_per_version(make_game, ada, bob):
    game = make_game(ada, bob)
    rounds = 5
    for round_ in range(rounds):
        results: list = []
        barrier = threading.Barrier(THREADS)
        threads = [
            threading.Thread(target=_submit_at, args=(game.pk, barrier, i, results))
            for i in range(THREADS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        kinds = Counter(r[0] for r in results)
        assert kinds == {"applied": 1, "stale": THREADS - 1}, results
        assert {r[1] for r in results} == {round_ + 1}
        assert {r[2] for r in results if r[0] == "stale"} == {409}
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(rounds + 1))
    game.refresh_from_db()
    assert game.version == rounds
    assert services.verify_game(game=game).ok


def _race(game_id: int, stop: threading.Event, tally: Counter, lock: threading.Lock) -> None:
    """Keep submitting legal commands for whoever must act, without an expected version."""
    try:
        engine = get_engine("vegas")
        while not stop.is_set():
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE or game.version >= 30:
                return
            assert game.state is not None
            order = engine.to_act(game.state)[0]
            user = game.seats.get(order=order).user
            text = engine.format(engine.legal_commands(game.state, order)[0])
            try:
                services.submit_command(
                    game=game_id, user=user, text=text, expected_version=game.version
                )
                outcome = "applied"
            except (services.StaleVersion, services.NotYourTurn, services.IllegalMove):
                outcome = "refused"
            with lock:
                tally[outcome] += 1
    finally:
        connection.close()


def test_racing_workers_leave_a_log_without_gap_or_duplicate(make_game, ada, bob):
    game = make_game(ada, bob)
    stop, lock, tally = threading.Event(), threading.Lock(), Counter[str]()
    threads = [
        threading.Thread(target=_race, args=(game.pk, stop, tally, lock)) for _ in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    stop.set()
    game.refresh_from_db()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.version + 1))
    assert tally["applied"] == game.version
    assert services.verify_game(game=game).ok


def _retry(game_id: int, user_id: int, text: str, barrier: threading.Barrier, out: list) -> None:
    try:
        from accounts.models import User

        user = User.objects.get(pk=user_id)
        barrier.wait(timeout=10)
        result = services.submit_command(game=game_id, user=user, text=text, idempotency_key="k")
        out.append((result.replayed, result.version, [m.pk for m in result.moves]))
    except Exception as exc:  # pragma: no cover - reported by the assertion below
        out.append(("error", repr(exc)))
    finally:
        connection.close()


def test_the_same_key_from_many_workers_at_once_applies_once(make_game, ada, bob):
    game = make_game(ada, bob)
    engine = get_engine("vegas")
    assert game.state is not None
    order = engine.to_act(game.state)[0]
    user = game.seats.get(order=order).user
    text = engine.format(engine.legal_commands(game.state, order)[0])
    out: list = []
    barrier = threading.Barrier(THREADS)
    threads = [
        threading.Thread(target=_retry, args=(game.pk, user.pk, text, barrier, out))
        for _ in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r[0] for r in out) == [False] + [True] * (THREADS - 1), out
    assert len({(r[1], tuple(r[2])) for r in out}) == 1  # everyone got the same answer
    assert Move.objects.filter(game=game).count() == 2


def test_a_move_that_waited_for_the_lock_leaves_each_seat_waited_on_as_the_game_says(
    make_game, ada, bob
):
    """Whose turn the lists and reminders show (the seats' flags and reminder moments) is
    whose turn the game says, when a move waited for the game's lock while the move before
    it changed the seats: it reads them as that move left them."""
    game = make_game(ada, bob)
    engine = get_engine("vegas")
    first, second = seat_to_act(game), None
    out: list = []

    def reply(user: Any, text: str) -> None:  # the second player's, by email: no version
        try:
            services.submit_command(game=game.pk, user=user, text=text, source="email")
            out.append("applied")
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            out.append(repr(exc))
        finally:
            connection.close()

    with transaction.atomic():  # the first move holds the lock until this commits
        services.submit_command(game=game.pk, user=first.user, text=legal_text(game))
        after = Game.objects.get(pk=game.pk)
        assert after.state is not None
        second = after.seats.select_related("user").get(order=engine.to_act(after.state)[0])
        assert second.order != first.order
        thread = threading.Thread(target=reply, args=(second.user, legal_text(after)))
        thread.start()
        time.sleep(0.5)  # it reads the game and waits for the lock
    thread.join(timeout=30)
    assert out == ["applied"]
    game.refresh_from_db()
    assert game.version == 2 and game.state is not None
    waiting = set(engine.to_act(game.state))
    seats = list(game.seats.all())
    assert {s.order for s in seats if s.to_act} == waiting
    assert {s.order for s in seats if s.remind_at is not None} == waiting


def test_an_offer_made_while_a_move_waits_for_the_lock_lapses_with_the_turn(make_game, ada, bob):
    """The move's read says whether an open offer lapses with the turn; an offer made (under
    the game's lock) while a move that ends the turn waits for that lock is seen by it and
    lapses (the check is in the seats' statement, which takes its snapshot once the lock is
    held)."""
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    game = make_game(ada, bob, game_type="lords-of-vegas")
    seat = seat_that_may_end_the_turn(game)
    other = game.seats.exclude(pk=seat.pk).select_related("user").get()
    out: list = []

    def end_turn() -> None:
        try:
            services.submit_command(game=game.pk, user=seat.user, text="end", source="email")
            out.append("applied")
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            out.append(repr(exc))
        finally:
            connection.close()

    trade = {
        "type": "trade",
        "steps": [{"type": "pay", "payer": seat.colour, "payee": other.colour, "amount": 1}],
    }
    with transaction.atomic():  # the offer holds the game's lock until this commits
        offer = services.propose_trade(game=game.pk, user=seat.user, command=trade)
        thread = threading.Thread(target=end_turn)
        thread.start()
        time.sleep(0.5)  # it reads nothing yet: it waits for the lock
    thread.join(timeout=30)
    assert out == ["applied"]
    offer.refresh_from_db()
    assert offer.status != "open", offer.status
