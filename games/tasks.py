"""Celery tasks of the games app: thin doors onto the services (ids and plain data in)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games.services import hooks, timeouts


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> dict[str, Any]:
    """Every minute (Celery beat): the timeout policy for every game past its deadline.
    Idempotent: each game's deadline is checked again under its row lock, so a retried or
    doubled sweep never applies a timeout twice."""
    results = timeouts.sweep()
    return {
        "games": [r.game_id for r in results],
        "missed": sum(len(r.missed) for r in results),
        "forfeited": sum(len(r.forfeited) for r in results),
    }


@shared_task(name="games.tasks.announce_moves", ignore_result=True)
def announce_moves() -> int:
    """Every few seconds (Celery beat): announce committed moves from the outbox to the apps
    built on the games (their emails). Idempotent: rows are claimed with a lease and deleted
    once announced; a lapsed claim is announced again to idempotent receivers."""
    return hooks.announce_pending()
