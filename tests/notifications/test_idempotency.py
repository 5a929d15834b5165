"""A retried or duplicated task never sends a second email; a failed send is retried."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core import mail
from django.db import connection

from notifications import services
from notifications.models import Notification
from notifications.tasks import notify_moves


@pytest.mark.django_db
def test_the_task_run_twice_sends_one_email(make_game, ada, bob):
    game = make_game(ada, bob)
    assert notify_moves(game.pk, [0]) == 1
    assert notify_moves(game.pk, [0]) == 0
    assert notify_moves.apply(args=[game.pk, [0]]).get() == 0  # as a worker would run it
    assert len(mail.outbox) == 1
    assert Notification.objects.get().status == Notification.Status.SENT


@pytest.mark.django_db
def test_a_failed_send_is_recorded_and_sent_once_by_the_retry(make_game, ada, bob, settings, smtp):
    game = make_game(ada, bob)
    port = settings.EMAIL_PORT
    settings.EMAIL_PORT = 9  # nothing listens there: the SMTP connection is refused
    with pytest.raises(services.DeliveryFailed):
        services.notify_game(game_id=game.pk)
    failed = Notification.objects.get()
    assert failed.status == Notification.Status.FAILED
    assert "Connection" in failed.error or "refused" in failed.error
    settings.EMAIL_PORT = port
    assert notify_moves(game.pk, [0]) == 1  # the retry
    assert notify_moves(game.pk, [0]) == 0
    assert len(smtp.wait_for(1)) == 1
    sent = Notification.objects.get()
    assert (sent.status, sent.attempts, sent.error) == (Notification.Status.SENT, 2, "")


@pytest.mark.django_db
def test_the_task_retries_a_failed_send_and_the_retry_sends_one_email(
    make_game, ada, bob, smtp, monkeypatch
):
    """SMTP refuses the first connection; Celery's retry (run at once when eager) sends the
    email: one email, one row, two attempts."""
    from django.core.mail.backends.smtp import EmailBackend

    game = make_game(ada, bob)
    opened: list[int] = []
    init = EmailBackend.__init__

    def first_to_a_closed_port(self: EmailBackend, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        opened.append(self.port)
        if len(opened) == 1:
            self.port = 9  # nothing listens there: the connection is refused

    monkeypatch.setattr(EmailBackend, "__init__", first_to_a_closed_port)

    assert notify_moves.apply(args=[game.pk, [0]]).get() == 1

    assert len(opened) == 2  # the failed attempt, then the retry
    assert len(smtp.wait_for(1)) == 1
    assert len(smtp.wait_for(2, timeout=0.5)) == 1
    sent = Notification.objects.get()
    assert (sent.status, sent.attempts, sent.error) == (Notification.Status.SENT, 2, "")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_runs_send_one_email(make_game, ada, bob):
    game = make_game(ada, bob)
    mail.outbox.clear()  # (the start's own notice went out on commit)
    Notification.objects.all().delete()
    threads = 6
    barrier = threading.Barrier(threads)
    results: list[object] = []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(notify_moves(game.pk, [0]))
        except Exception as exc:  # pragma: no cover - shown by the assertion
            results.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    assert sorted(results, key=str) == [0] * (threads - 1) + [1]
    assert len(mail.outbox) == 1
    assert Notification.objects.count() == 1
