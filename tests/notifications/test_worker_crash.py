"""No email is lost when a worker dies: a real Celery worker (its own process, with its
embedded beat) sends a batch of 'your turn' emails to a real, slow SMTP server and is killed
with SIGKILL in the middle; after a restart every notification is delivered, the one that was
in flight at worst twice with the same Message-ID.

The worker talks to this test's database (transactional test: the rows are committed), to a
Redis queue of its own, and to the aiosmtpd server below. Leases are short (2 s) so that the
lapsed claims are taken again quickly."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.models import Announcement
from lords.celery import app
from notifications.models import Notification
from tests.notifications.conftest import Inbox, _free_port

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis"),
]

GAMES = 12
LEASE = 2.0


class SlowInbox(Inbox):
    """Takes each message at once, then answers 250 only after a pause: a worker killed
    in that pause has sent an email it never learns was accepted."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        await asyncio.sleep(0.2)
        return answer


@pytest.fixture
def slow_smtp() -> Iterator[Inbox]:
    from aiosmtpd.controller import Controller

    inbox = SlowInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    inbox.port = controller.port  # type: ignore[attr-defined]
    try:
        yield inbox
    finally:
        controller.stop()


def _database_url() -> str:
    db = connection.settings_dict
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


class Worker:
    """``celery worker -B`` in its own process group, consuming only ``queue``."""

    def __init__(self, queue: str, smtp_port: int, workdir: Path) -> None:
        self.queue, self.workdir = queue, workdir
        self.env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_TASK_DEFAULT_QUEUE": queue,
            "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
            "ANNOUNCE_EVERY_SECONDS": "0.5",
            "NOTIFICATIONS_RESEND_EVERY_SECONDS": "1",
            "ANNOUNCEMENT_LEASE_SECONDS": str(LEASE),
            "NOTIFICATIONS_LEASE_SECONDS": str(LEASE),
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "celery", "-A", "lords", "worker", "-B"]
        command += ["--pool", "solo", "-Q", self.queue, "--loglevel", "warning"]
        command += ["-s", str(self.workdir / "beat-schedule"), "--without-mingle"]
        command += ["--without-gossip", "--without-heartbeat"]
        log = open(self.workdir / "worker.log", "ab")  # noqa: SIM115 (the process keeps it)
        self.process = subprocess.Popen(
            command, env=self.env, stdout=log, stderr=log, start_new_session=True
        )

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()


def _wait(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def test_a_worker_killed_mid_send_loses_no_email(
    make_game, ada, bob, settings, slow_smtp, tmp_path
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the moves leave their announcements
    games = [make_game(ada, bob) for _ in range(GAMES)]
    assert Announcement.objects.count() >= GAMES
    queue = f"test-crash-{uuid.uuid4().hex[:12]}"
    worker = Worker(queue, slow_smtp.port, tmp_path)
    try:
        worker.start()
        _wait(lambda: len(slow_smtp.messages) >= 3, 60, "the first emails")
        worker.kill()  # mid-batch: SIGKILL, no cleanup of any kind
        received_before = len(slow_smtp.messages)
        left = Notification.objects.exclude(status=Notification.Status.SENT).count()
        assert received_before < GAMES and (left or Announcement.objects.exists())

        worker.start()
        _wait(
            lambda: (
                not Announcement.objects.exists()
                and Notification.objects.filter(kind=Notification.Kind.TURN).count() == GAMES
                and not Notification.objects.exclude(status=Notification.Status.SENT).exists()
            ),
            120,
            "every email sent after the restart",
        )
    finally:
        worker.stop()
        with app.connection_for_write() as conn:
            client = conn.default_channel.client
            for key in client.keys(f"*{queue}*"):
                client.delete(key)

    notes = list(Notification.objects.all())
    turns = [n for n in notes if n.kind == Notification.Kind.TURN]
    assert {n.game_id for n in turns} == {g.pk for g in games}  # each first player told
    assert all(n.status == Notification.Status.SENT for n in notes)
    assert not Announcement.objects.exists()
    received = [m["Message-ID"] for m in slow_smtp.messages]
    assert set(received) == {n.message_id for n in notes}  # every one delivered: 0 lost
    assert len(received) - len(set(received)) <= 1  # at worst the one in flight, twice
