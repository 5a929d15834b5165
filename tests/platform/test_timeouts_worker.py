"""The beat's ``sweep_deadlines`` task run by a real Celery worker on the Redis broker.

Isolated from the rest of the suite (two xdist processes share one Redis database, and other
tests may run Celery eagerly): while it runs, this test routes every task to a queue of its
own, which only its worker consumes, with eager mode off; it waits for the task by a signal
with a bound, never by sleeping, and deletes its queue afterwards."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.db import connections
from django.utils import timezone

from games.models import Game, Move
from games.tasks import sweep_deadlines
from lords.celery import app

from .helpers import seat_to_act

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 30


@contextmanager
def _own_queue() -> Iterator[str]:
    """Every task sent meanwhile goes to a fresh queue; eager mode off; restored after."""
    queue = f"lords-test-timeouts-{uuid.uuid4().hex}"
    changes = {
        "task_always_eager": False,
        "task_default_queue": queue,
        "worker_hijack_root_logger": False,
    }
    saved = {key: app.conf[key] for key in changes}
    app.conf.update(changes)
    try:
        yield queue
    finally:
        app.conf.update(saved)
        with app.connection_for_write() as conn:
            channel = conn.default_channel
            channel.queue_delete(queue)
            # (and kombu's binding keys, which name the queue)
            for key in channel.client.scan_iter(match=f"*{queue}*"):
                channel.client.delete(key)


@contextmanager
def _finished(task_name: str) -> Iterator[tuple[threading.Event, dict[str, Any]]]:
    """An event set when the worker has run ``task_name``, with its state and return value.
    The worker thread's database connections are closed after each of its tasks (the test
    database is flushed after the test)."""
    done, seen = threading.Event(), dict[str, Any]()

    def after(task: Any = None, state: str | None = None, retval: Any = None, **_: Any) -> None:
        connections.close_all()
        if task is not None and task.name == task_name:
            seen.update(state=state, retval=retval)
            done.set()

    task_postrun.connect(after, weak=False)
    try:
        yield done, seen
    finally:
        task_postrun.disconnect(after)


@pytest.mark.skipif(
    not str(settings.CELERY_BROKER_URL).startswith("redis://"), reason="needs the Redis broker"
)
def test_a_real_worker_sweeps_a_missed_deadline(make_game, ada, bob):
    with _own_queue() as queue:  # (the start's notification tasks go there too)
        game = make_game(ada, bob)
        late = seat_to_act(game)
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=5))
        version = Game.objects.get(pk=game.pk).version
        with (
            _finished(sweep_deadlines.name) as (done, seen),
            start_worker(app, perform_ping_check=False, queues=[queue], shutdown_timeout=20),
        ):
            sweep_deadlines.apply_async(queue=queue)
            assert done.wait(timeout=WAIT_SECONDS), "the worker did not run the sweep in time"

    assert seen["state"] == "SUCCESS", seen
    assert seen["retval"]["games"] == [game.pk] and seen["retval"]["missed"] == 1
    game.refresh_from_db()
    move = Move.objects.get(game=game, seq=version + 1)
    assert (move.seat, move.source) == (late, "system")
    late.refresh_from_db()
    assert late.timeouts == 1
    assert game.deadline is not None and game.deadline > timezone.now()
