"""End to end: a move through the service, its announcement drained by the periodic task
through Redis on a real Celery worker, the email to a real SMTP server.

Isolation: the suite runs tasks eagerly (lords/pytest_plugin.py); this test alone turns that
off, routes the tasks to a queue of its own (so that it consumes only its own tasks, whoever
else shares the Redis database) and removes the queue's keys afterwards."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connection

from games import services
from games.engines.registry import get_engine
from games.tasks import announce_moves
from lords.celery import app

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis"),
]


@pytest.fixture
def worker(settings: Any) -> Iterator[str]:
    queue = f"test-notifications-{uuid.uuid4().hex[:12]}"
    saved = (app.conf.task_always_eager, app.conf.task_routes)
    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the move path leaves its announcement
    app.conf.task_routes = {"games.tasks.*": {"queue": queue}}
    main = threading.main_thread()

    def close_worker_connection(**kwargs: object) -> None:
        if threading.current_thread() is not main:  # the worker's own DB connection
            connection.close()

    task_postrun.connect(close_worker_connection, weak=False)
    try:
        with start_worker(
            app, pool="solo", concurrency=1, perform_ping_check=False, queues=[queue]
        ):
            yield queue
    finally:
        task_postrun.disconnect(close_worker_connection)
        app.conf.task_always_eager, app.conf.task_routes = saved
        with app.connection_for_write() as conn:
            client = conn.default_channel.client
            for key in client.keys(f"*{queue}*"):
                client.delete(key)


WORKER_WAIT = 60.0
"""Seconds: the worker starts, then drains through Redis; a loaded CI machine is slow."""


def arrived(smtp: Any, count: int) -> None:
    """Wait for ``count`` emails; fail saying so if they do not come (a silent timeout would
    fail later, on a question the missing email cannot answer)."""
    got = smtp.wait_for(count, timeout=WORKER_WAIT)
    subjects = [m["Subject"] for m in got]
    assert len(got) >= count, f"{len(got)} of {count} emails in {WORKER_WAIT:.0f} s: {subjects}"


def test_a_submitted_move_reaches_the_player_through_the_worker(worker, make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    announce_moves.delay()  # (Celery beat's tick): the join and the start, through the worker
    first = game.seats.select_related("user").get(to_act=True).user
    other = bob if first == ada else ada
    arrived(smtp, 3)  # Bob joined (to Ada); the game started (to both: the first to act's
    started = [m["Subject"] for m in smtp.to(first.email)]  # is their 'your turn')
    assert any(f"[Lords #{game.pk}]" in s and "started" in s for s in started)
    engine = get_engine("vegas")
    assert game.state is not None
    text = engine.format(engine.legal_commands(game.state, engine.to_act(game.state)[0])[0])
    services.submit_command(game=game.pk, user=first, text=text)
    announce_moves.delay()
    arrived(smtp, 4)
    game.refresh_from_db()
    assert game.seats.get(to_act=True).user == other
    turns = [m["Subject"] for m in smtp.to(other.email) if "Your turn" in m["Subject"]]
    assert turns == [turns[0]] and f"[Lords #{game.pk}] Your turn" in turns[0]
