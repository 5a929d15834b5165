"""The one discipline of every email the site keeps before it sends it (docs/decisions/0012).

Three kinds of row hold such an email: a :class:`~notifications.models.Notification` (about
a game, or the digest), an :class:`~games.models.Invitation` (to an address that may have no
account yet) and a league's :class:`~leagues.models.Mail`. Each is sent the same way:

- a sender **takes** the row with a conditional UPDATE (:func:`take`): its due moment has
  passed, and the UPDATE moves it a lease ahead and counts the try. Of senders racing for
  it, one wins; if that one dies mid-send, the lease lapses and another takes it back;
- a failed send is due again after a backoff (:func:`next_try`), and given up after
  :data:`MAX_ATTEMPTS` tries, some thirteen hours: an SMTP server down for an afternoon
  loses nothing.

The rows differ in what they keep (a notification's status, an invitation's answers), so
each caller says which rows may be taken; the lease, the count and the backoff are here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, QuerySet
from django.utils import timezone

MAX_ATTEMPTS = 20
"""Tries of one email (backoff 30 s doubling to an hour: about 13 hours) before it is given
up (left without a due moment, logged as an error, visible in the admin)."""


def lease() -> timedelta:
    """How long a claim holds before another caller may take the email back: longer than
    one SMTP conversation can take (``EMAIL_TIMEOUT``)."""
    return timedelta(seconds=float(settings.NOTIFICATIONS_LEASE_SECONDS))


def retry_delay(attempts: int) -> timedelta:
    """30 s after the first failed try, doubling, at most an hour."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


def next_try(attempts: int, now: datetime) -> datetime | None:
    """When an email whose try number ``attempts`` failed is due again; None: that was the
    last try (given up)."""
    return None if attempts >= MAX_ATTEMPTS else _later(now) + retry_delay(attempts)


def take(
    rows: QuerySet[Any],
    now: datetime,
    *,
    due: str = "due_at",
    attempts: str = "attempts",
    **also: Any,
) -> bool:
    """Take the row of ``rows`` (filtered to one row that may be taken now) for a lease,
    counting the try; ``also``: other fields the same UPDATE sets (a status). True: this
    caller won it."""
    return bool(rows.update(**{due: _later(now) + lease(), attempts: F(attempts) + 1}, **also))


def _later(now: datetime) -> datetime:
    """``now``, or the clock's time if it has moved past it: a run takes its ``now`` once,
    then may spend minutes on a server that does not answer (``EMAIL_TIMEOUT`` a try), and a
    lease counted from the run's start could have lapsed before its row is even tried, so
    another run would take it too. (A ``now`` in the future is a test's clock: kept.)"""
    return max(now, timezone.now())
