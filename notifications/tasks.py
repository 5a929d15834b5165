"""Celery tasks: thin, ids only; the work and the rules are in ``notifications.services``.

The 'your turn' and 'game over' emails are sent where the games' outbox is drained
(``games.tasks.announce_moves``, whose signal reaches ``notifications.receivers``). Failed
sends and sends a dead worker left behind are retried by :func:`send_due` (see
``docs/decisions/0012-outbox-and-leases.md``).
"""

from __future__ import annotations

from celery import shared_task

from notifications import digest, services, table


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Beat, every 5 minutes: reminders before deadlines (failures wait for :func:`send_due`)."""
    return services.send_reminders()


@shared_task(ignore_result=True)
def send_due() -> int:
    """Beat, every 30 seconds: the emails whose retry is due or whose lease lapsed."""
    return services.send_due() + table.send_due_invitations()


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Beat, every hour on the hour: the daily digests of the players whose hour it is."""
    return digest.run_digests()


@shared_task(ignore_result=True)
def deliver_webhooks() -> int:
    """Beat, every 30 seconds (and kicked when moves are announced): the players' outbound
    webhooks, with their backoff (notifications/outbound.py)."""
    from notifications.outbound import deliver_due

    return deliver_due()
