"""Celery tasks of the leagues: thin; the work is in :mod:`leagues.mail`."""

from __future__ import annotations

from celery import shared_task

from leagues import mail


@shared_task(ignore_result=True)
def send_league_mail() -> int:
    """After a commit that queued league email, and every minute (beat): send what waits."""
    return mail.send_waiting()
