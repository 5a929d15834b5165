"""A repeated announcement never sends a second email; a failed send is retried by the
periodic task, from the stored email, with the same Message-ID."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.db.models import Q

from notifications import leases, services
from notifications.models import Notification
from notifications.services import notify_game
from notifications.tasks import send_due


@pytest.mark.django_db
def test_notifying_twice_sends_one_email(make_game, ada, bob):
    game = make_game(ada, bob)
    assert notify_game(game_id=game.pk) == 1
    assert notify_game(game_id=game.pk) == 0
    assert send_due.apply().get() == 0  # the periodic task finds nothing to resend
    assert len(mail.outbox) == 1
    assert Notification.objects.get().status == Notification.Status.SENT


@pytest.mark.django_db
def test_a_failed_send_is_recorded_and_sent_once_by_the_retry(make_game, ada, bob, settings, smtp):
    game = make_game(ada, bob)
    port = settings.EMAIL_PORT
    settings.EMAIL_PORT = 9  # nothing listens there: the SMTP connection is refused
    assert services.notify_game(game_id=game.pk) == 0
    failed = Notification.objects.get()
    assert failed.status == Notification.Status.FAILED
    assert "Connection" in failed.error or "refused" in failed.error
    assert failed.due_at is not None and failed.message_id  # stored, due after the backoff
    assert services.send_due() == 0  # not due yet
    settings.EMAIL_PORT = port
    later = failed.due_at + timedelta(seconds=1)
    assert services.send_due(now=later) == 1  # the retry
    assert services.send_due(now=later) == 0
    assert notify_game(game_id=game.pk) == 0
    [message] = smtp.wait_for(1)
    assert message["Message-ID"] == failed.message_id
    sent = Notification.objects.get()
    assert (sent.status, sent.attempts, sent.error, sent.due_at) == (
        Notification.Status.SENT,
        2,
        "",
        None,
    )


@pytest.mark.django_db
def test_a_send_whose_worker_died_is_sent_again_after_its_lease(make_game, ada, bob, smtp):
    """A row left 'sending' (its worker was killed between the claim and the end of the
    SMTP conversation) is sent again once the lease lapses, with the same Message-ID; not
    before (another worker may still be sending it)."""
    from django.utils import timezone

    game = make_game(ada, bob)
    seats = services._seats(game)
    seat = next(s for s in seats if s.to_act)
    notice = services.Notice(seat, Notification.Kind.TURN, f"v{game.version}")
    note = services.claim(game, notice)
    assert note is not None
    services.store(note, services.compose(game, seats, notice))  # ... and then the worker died
    assert services.claim(game, notice) is None  # the lease holds
    assert services.send_due() == 0
    assert notify_game(game_id=game.pk) == 0
    lapsed = timezone.now() + leases.lease() + timedelta(seconds=1)
    assert services.send_due(now=lapsed) == 1
    [message] = smtp.wait_for(1)
    note.refresh_from_db()
    assert message["Message-ID"] == note.message_id
    assert message["To"] == seat.user.email  # type: ignore[union-attr]
    assert (note.status, note.attempts) == (Notification.Status.SENT, 2)


@pytest.mark.django_db
def test_an_email_failing_every_time_is_given_up_after_the_last_try(make_game, ada, bob, settings):
    game = make_game(ada, bob)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9
    assert notify_game(game_id=game.pk) == 0
    note = Notification.objects.get()
    tries = 1
    while note.due_at is not None:
        assert services.send_due(now=note.due_at) == 0
        note = Notification.objects.get()
        tries += 1
    assert tries == note.attempts == leases.MAX_ATTEMPTS
    assert note.status == Notification.Status.FAILED
    delays = [leases.retry_delay(n).total_seconds() for n in range(1, leases.MAX_ATTEMPTS)]
    assert delays[:4] == [30, 60, 120, 240]  # doubling ...
    assert max(delays) == 3600  # ... up to an hour
    assert sum(delays) / 3600 > 12  # tried for half a day and more


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
            results.append(notify_game(game_id=game.pk))
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


@pytest.mark.django_db
def test_a_lease_runs_from_when_the_row_is_taken_not_from_the_runs_start(make_game, ada, bob):
    """A run takes its ``now`` once and may spend minutes on a server that does not answer:
    a lease counted from that ``now`` could lapse before its row is tried, and another run
    would take the row too (found by review)."""
    from django.utils import timezone

    game = make_game(ada, bob)
    seat = next(s for s in services._seats(game) if s.to_act)
    note = services.claim(game, services.Notice(seat, Notification.Kind.TURN, "v-lease"))
    assert note is not None
    run_started = timezone.now() - timedelta(minutes=10)  # ten minutes into a slow run
    Notification.objects.filter(pk=note.pk).update(status=Notification.Status.FAILED)
    taken = services.take_back(note.pk, Q(status=Notification.Status.FAILED), run_started)
    assert taken is not None and taken.due_at is not None
    assert taken.due_at > timezone.now() + leases.lease() - timedelta(seconds=5)
