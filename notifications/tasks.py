"""Celery tasks: thin, ids only; the work and the rules are in ``notifications.services``.

A task that fails to send some email raises :class:`DeliveryFailed` after sending the
others; Celery retries it with exponential backoff (30 s, 60 s, ... up to 15 minutes, six
times). The rows already sent are skipped on each retry (see
``docs/decisions/0003-notifications.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

from celery import shared_task

from notifications import services


@shared_task(
    autoretry_for=(services.DeliveryFailed,),
    retry_backoff=30,
    retry_backoff_max=900,
    retry_jitter=True,
    max_retries=6,
    acks_late=True,
)
def notify_moves(game_id: int, seqs: Sequence[int]) -> int:
    """Moves ``seqs`` of game ``game_id`` were committed: send the 'your turn' or 'game
    over' emails the game now calls for. Returns how many were sent."""
    return services.notify_game(game_id=game_id)


@shared_task
def send_reminders() -> int:
    """Beat, every 5 minutes: reminders before deadlines (failures wait for the next run)."""
    return services.send_reminders()
