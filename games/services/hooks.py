"""How the apps built on the games learn of committed moves: a transactional outbox.

The move path calls :func:`announce_after_commit` inside the move's transaction: it writes an
:class:`~games.models.Announcement` row there, so the announcement commits with the moves
(a rolled-back move leaves none, and a committed one is never lost to a broker outage), and
the request pays one INSERT, not a broker round trip. :func:`announce_pending` (a periodic
task, or at once after the commit when tasks run eagerly: no worker) claims rows with a
lease, sends :data:`moves_committed` for their games and deletes them. A worker that dies
holding a claim leaves rows whose lease lapses; the next run takes them again, so receivers
must be idempotent (the notifications app's claim rows are). Nothing here imports the apps
above the games: they connect to the signal.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from games.models import Announcement

log = logging.getLogger(__name__)

moves_committed = Signal()
"""Sent with ``game_id`` and ``seqs`` (a list of ints; seq 0: the game started)."""

table_changed = Signal()
"""Sent after the commit of a change at an open table, with ``game_id``, ``change``
("invited", "joined", "left") and the ids it concerns: ``invitation_id`` (invited),
``seat_id`` and ``user_id`` (joined, left: the seat's pk, gone once it is left). Not an
outbox: a lost "joined"/"left" email is a small loss; the invitation email, which matters,
is claimed on the invitation row and swept again (``Invitation.email_due_at``)."""


def table_changed_after_commit(game_id: int, change: str, **ids: int) -> None:
    """Send :data:`table_changed` once the caller's transaction has committed."""
    transaction.on_commit(
        lambda: table_changed.send_robust(sender=None, game_id=game_id, change=change, **ids)
    )


BATCH = 200
"""Announcements claimed at once (a worker's run takes batches until none is left)."""


def announce_after_commit(game_id: int, seqs: Sequence[int]) -> None:
    """Record that moves ``seqs`` of ``game_id`` are being committed (call it inside the
    move's transaction). Without a worker, announce them right after the commit."""
    if not seqs:
        return
    Announcement.objects.create(game_id=game_id, seqs=list(seqs))
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(announce_pending)


def _lease() -> timedelta:
    return timedelta(seconds=float(settings.ANNOUNCEMENT_LEASE_SECONDS))


def _claim(batch: int) -> tuple[int, dict[int, tuple[list[int], list[int]]]]:
    """Claim up to ``batch`` free or lapsed announcements: how many, and for each game its
    row ids and the seqs they announce."""
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            Announcement.objects.filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            .order_by("pk")
            .select_for_update(skip_locked=True)
            .values_list("pk", "game_id", "seqs")[:batch]
        )
        if rows:
            Announcement.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(
                lease_until=now + _lease()
            )
    claimed: dict[int, tuple[list[int], list[int]]] = {}
    for pk, game_id, seqs in rows:
        pks, all_seqs = claimed.setdefault(game_id, ([], []))
        pks.append(pk)
        all_seqs.extend(seqs)
    return len(rows), claimed


def announce_pending(batch: int = BATCH) -> int:
    """Announce every committed move not yet announced; how many games were announced.

    One signal per game, however many rows it has (the receivers look at the game as it is
    now). A game whose receivers fail keeps its rows: the lease lapses and a later run tries
    again."""
    announced = 0
    while True:
        count, claimed = _claim(batch)
        for game_id, (pks, seqs) in claimed.items():
            if _announce(game_id, sorted(set(seqs))):
                Announcement.objects.filter(pk__in=pks).delete()
                announced += 1
        if count < batch:
            return announced


def _announce(game_id: int, seqs: list[int]) -> bool:
    """Send the signal; False (logged) if a receiver failed."""
    answers = moves_committed.send_robust(sender=None, game_id=game_id, seqs=seqs)
    failed = [answer for _, answer in answers if isinstance(answer, Exception)]
    for exc in failed:
        log.error("announcing game #%s moves %s failed: %r", game_id, seqs, exc, exc_info=exc)
    return not failed
