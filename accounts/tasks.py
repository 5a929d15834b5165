"""The accounts' periodic work (Celery beat: ``lords.settings.CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from accounts.unconfirmed import remove_unconfirmed


@shared_task(name="accounts.tasks.remove_unconfirmed", ignore_result=True)
def remove_unconfirmed_accounts() -> int:
    """Daily: accounts whose address was never confirmed, a week on. Idempotent."""
    return remove_unconfirmed()
