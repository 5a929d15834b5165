"""Celery tasks of the games app: thin doors onto the services (ids and plain data in)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from games import events
from games.services import expire_trades, hooks, timeouts


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> dict[str, Any]:
    """Every minute (Celery beat): the timeout policy for every game past its deadline, and
    the trade offers past their expiry time (docs/decisions/0016: an offer with a time of
    its own lapses then, whether or not anyone looks at it). Idempotent: each game's
    deadline is checked again under its row lock, and the offers are claimed with a
    conditional UPDATE, so a retried or doubled sweep never applies a timeout twice."""
    results = timeouts.sweep()
    return {
        "games": [r.game_id for r in results],
        "missed": sum(len(r.missed) for r in results),
        "forfeited": sum(len(r.forfeited) for r in results),
        "offers_expired": expire_trades(),
    }


@shared_task(name="games.tasks.announce_moves", ignore_result=True)
def announce_moves() -> int:
    """Every few seconds (Celery beat): announce committed moves from the outbox to the apps
    built on the games (their emails). Idempotent: rows are claimed with a lease and deleted
    once announced; a lapsed claim is announced again to idempotent receivers. A backlog
    (a full first batch) queues one more run, which an idle worker process takes: the
    outbox is drained by every process, not only by the one the tick reached."""
    return hooks.announce_pending(recruit=_recruit)


def _recruit() -> None:
    """One more drain run, queued now, with the tick's expiry: it finds nothing if this one
    emptied the outbox first, and recruits again if the backlog is still deep."""
    announce_moves.apply_async(expires=float(settings.ANNOUNCE_EVERY_SECONDS) * 5)


@shared_task(name="games.tasks.prune_player_events", ignore_result=True)
def prune_player_events() -> int:
    """Daily (Celery beat): the players' events past their keeping time go
    (``events.prune``). Idempotent: a second run finds nothing old."""
    return events.prune()
