"""A worker's drain run sends its emails over one SMTP connection, one message at a time:
a recipient the server refuses fails that email only (the others go out on the same
connection) and the refused one is retried later, the same email with the same Message-ID.

Real pieces only: the games' outbox drained by ``games.tasks.announce_moves`` on a Celery
worker with its embedded beat, a process of its own (Redis, a queue of this test's own:
``test_worker_crash.Worker``), an aiosmtpd server that counts its sessions and refuses one
address until told otherwise."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from games.models import Announcement
from lords.celery import app
from notifications.models import Notification
from tests.notifications.conftest import Inbox, _free_port
from tests.notifications.test_worker_crash import Worker

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis"),
]


class Picky(Inbox):
    """Refuses ``refused`` (550 at RCPT) while set; counts the sessions (one EHLO each)."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: str | None = None
        self.sessions = 0
        self.port = 0

    async def handle_EHLO(
        self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        self.sessions += 1
        session.host_name = hostname
        return responses

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address == self.refused:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def picky() -> Iterator[Picky]:
    inbox = Picky()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    inbox.port = controller.port
    try:
        yield inbox
    finally:
        controller.stop()


def _settled() -> bool:
    return (
        not Announcement.objects.exists()
        and not Notification.objects.filter(status=Notification.Status.SENDING).exists()
    )


def _wait(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_a_refused_recipient_fails_alone_and_is_retried(
    settings, picky, make_game, make_user, tmp_path
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the moves leave their announcements
    players = [make_user(name) for name in ("ada", "bob", "cy", "dee", "eve", "fay")]
    games = [make_game(players[i], players[i + 1]) for i in range(0, 6, 2)]
    picky.refused = "dee@example.org"
    queue = f"test-batch-{uuid.uuid4().hex[:12]}"
    worker = Worker(queue, picky.port, tmp_path)  # (its beat drains the outbox at once)
    try:
        worker.start()
        _wait(lambda: _settled() and Notification.objects.exists(), "the drain run")

        notes = list(Notification.objects.all())
        refused = [n for n in notes if n.headers.get("To") == ["dee@example.org"]]
        others = [n for n in notes if n not in refused]
        assert refused and others and {n.game_id for n in notes} == {g.pk for g in games}
        assert all(n.status == Notification.Status.FAILED and "550" in n.error for n in refused)
        assert all(n.due_at is not None for n in refused)  # (its retry is planned)
        assert all(n.status == Notification.Status.SENT for n in others)
        received = [m["Message-ID"] for m in picky.messages]
        assert sorted(received) == sorted(n.message_id for n in others)
        assert picky.sessions == 1  # one connection for the whole run, despite the refusal

        picky.refused = None  # the mailbox exists now; the retry is due (beat: send_due)
        retried = Notification.objects.filter(pk__in=[n.pk for n in refused])
        retried.update(due_at=refused[0].created_at)
        _wait(lambda: not retried.exclude(status=Notification.Status.SENT).exists(), "the retry")
    finally:
        worker.stop()
        with app.connection_for_write() as conn:
            client = conn.default_channel.client
            for key in client.keys(f"*{queue}*"):
                client.delete(key)

    assert all(n.attempts == 2 for n in retried.all())
    arrived = {m["Message-ID"] for m in picky.messages if m["To"] == "dee@example.org"}
    assert arrived == {n.message_id for n in refused}  # the stored email, same Message-ID
