"""Sweeps racing each other and racing a player's move, on the real PostgreSQL row lock:
each timeout is applied once, and a player's move and the timeout of the same turn never
both apply."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game, Move

from .helpers import legal_text, seat_to_act

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _together(*jobs: Callable[[], Any]) -> list[Any]:
    """Run the jobs in threads released at once; each answer, or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    answers: list[Any] = [None] * len(jobs)

    def run(index: int, job: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            answers[index] = job()
        except Exception as exc:
            answers[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    return answers


def _gapless(game: Game) -> None:
    game.refresh_from_db()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.version + 1))
    assert services.verify_game(game=game).ok


def test_two_sweeps_at_once_apply_each_timeout_once(make_game, ada, bob, cy):
    games = [make_game(ada, bob), make_game(bob, cy), make_game(cy, ada)]
    now = max(g.deadline for g in games) + timedelta(minutes=1)

    first, second = _together(lambda: services.sweep(now=now), lambda: services.sweep(now=now))

    assert not isinstance(first, Exception) and not isinstance(second, Exception)
    applied = sorted(r.game_id for r in [*first, *second])
    assert applied == sorted(g.pk for g in games)
    for game in games:
        assert sum(game.seats.values_list("timeouts", flat=True)) == 1
        assert Move.objects.filter(game=game, source="system", seq__gt=0).count() == 1
        _gapless(game)


def test_a_players_move_racing_the_sweep_leaves_exactly_one_of_them(make_game, ada, bob):
    # No forfeits: when the sweep wins three times running for one seat, the game would end.
    game = make_game(ada, bob, max_timeouts=0)
    outcomes = set()
    for _ in range(6):
        game.refresh_from_db()
        late, text, version = seat_to_act(game), legal_text(game), game.version
        now = timezone.now()
        Game.objects.filter(pk=game.pk).update(deadline=now - timedelta(minutes=1))
        timeouts_before = late.timeouts

        moved, swept = _together(
            partial(
                services.submit_command,
                game=game.pk,
                user=late.user,
                text=text,
                expected_version=version,
            ),
            partial(services.sweep, now=now),
        )

        late.refresh_from_db()
        game.refresh_from_db()
        assert game.version > version
        if isinstance(moved, services.StaleVersion):  # the sweep came first
            assert moved.status == 409
            assert [r.game_id for r in swept] == [game.pk]
            assert late.timeouts == timeouts_before + 1
            assert Move.objects.get(game=game, seq=version + 1).source == "system"
            outcomes.add("swept")
        else:  # the move came first: the sweep found the deadline moved on
            assert not isinstance(moved, Exception), moved
            assert swept == []
            assert late.timeouts == timeouts_before
            assert Move.objects.get(game=game, seq=version + 1).source == "api"
            outcomes.add("moved")
        assert game.deadline is not None and game.deadline > now
        _gapless(game)
    assert outcomes  # (which one wins is up to the scheduler)
