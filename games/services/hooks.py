"""How the apps built on the games learn of committed moves and of changes at an open
table (invited, joined, left): a transactional outbox.

The move path calls :func:`announce_after_commit` inside the move's transaction: it writes an
:class:`~games.models.Announcement` row there, so the announcement commits with the moves
(a rolled-back move leaves none, and a committed one is never lost to a broker outage), and
the request pays one INSERT, not a broker round trip. :func:`announce_pending` (a periodic
task, or at once after the commit when tasks run eagerly: no worker) claims rows with a
lease, sends :data:`moves_committed` for their games (:data:`table_changed` for a table
change) and deletes them. A worker that dies
holding a claim leaves rows whose lease lapses; the next run takes them again, so receivers
must be idempotent (the notifications app's claim rows are). Nothing here imports the apps
above the games: they connect to the signal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.dispatch import Signal
from django.utils import timezone

from games.models import Announcement
from games.services import rows
from games.services.rows import transaction_lock

log = logging.getLogger(__name__)
T = TypeVar("T")

moves_committed = Signal()
"""Sent with ``game_id``, ``seqs`` (a list of ints; seq 0: the game started) and ``batch``
(a :class:`Batch`: every game of the same claim; a receiver may ignore it)."""


class Batch:
    """The games whose moves one claim announces (``games``: each one's seqs), sent along
    with each game's :data:`moves_committed`: a receiver may read what it needs for all of
    them at once, at the first game, and keep it in :attr:`memo` for the others (a drain
    run announces hundreds of games; a query per batch instead of one per game). What is
    kept there is valid for this batch only: the next claim is a new ``Batch``."""

    __slots__ = ("games", "memo")

    def __init__(self, games: dict[int, list[int]]) -> None:
        self.games = games
        self.memo: dict[str, Any] = {}

    def __repr__(self) -> str:  # (in the log of a failed announcement)
        return f"<Batch of {len(self.games)} games>"

    def kept(self, name: str, read: Callable[[], T]) -> T:
        """``read()`` at its first call for this batch, kept for the others."""
        if name not in self.memo:
            self.memo[name] = read()
        return cast(T, self.memo[name])


table_changed = Signal()
"""Sent with ``game_id``, ``change`` ("invited", "joined", "left") and the ids it concerns:
``invitation_id`` (invited), ``seat_id`` and ``user_id`` (joined, left: the seat's pk, gone
once it is left). Through the outbox, like the moves."""


def table_changed_after_commit(game_id: int, change: str, **ids: int) -> None:
    """Record a change at an open table (call it inside the change's transaction), to be
    announced with :data:`table_changed` once committed, like the moves."""
    Announcement.objects.create(game_id=game_id, change=change, details=ids)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(announce_pending)


GIVE_UP_AFTER = 3
"""Failures before a row may be given up, however long it has failed: after a long worker
outage, one passing error on an old row is not enough."""

CLAIM_LOCK = 0x10D5_0012
"""The advisory lock a claim holds (PostgreSQL): see :func:`_claim`."""

BEHIND = "waiting behind a given-up announcement of the same game"
"""The error of a moves row given up because an older one of its game was."""

BATCH = 50
"""Announcements claimed at once (a worker's run takes batches until none is left; a full
first batch recruits another run, so that every worker process shares a backlog)."""


def announce_after_commit(game_id: int, seqs: Sequence[int]) -> None:
    """Record that moves ``seqs`` of ``game_id`` are being committed (call it inside the
    move's transaction). Without a worker, announce them right after the commit."""
    if not seqs:
        return
    rows.insert([rows.new(Announcement, game_id=game_id, seqs=list(seqs))])
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(announce_pending)


def _lease() -> timedelta:
    return timedelta(seconds=float(settings.ANNOUNCEMENT_LEASE_SECONDS))


Claimed = tuple[
    int, dict[int, tuple[list[int], list[int]]], list[tuple[int, int, str, Any]], datetime
]


def _claim(batch: int) -> Claimed:
    """Claim up to ``batch`` free or lapsed announcements: how many, for each game its moves
    rows and the seqs they announce, the table changes one by one, and the claim's lease
    (the rows' ``lease_until``: still this value, they are still this run's).

    A game's moves go in their order: a moves row is not claimed while an older moves row
    of its game is out under a lease (another run's, or failing), and one behind a given-up
    row is given up with it (:func:`_behind_given_up`). Claims run one at a time (an
    advisory lock on PostgreSQL): two at once would each miss the other's uncommitted
    lease, and could take a game's newer row while the other takes the older one."""
    with transaction.atomic():
        transaction_lock(CLAIM_LOCK)
        now = timezone.now()
        lease = now + _lease()
        _behind_given_up(now)
        kind = Announcement.Change.MOVES
        older_out = Announcement.objects.filter(
            game=OuterRef("game"), pk__lt=OuterRef("pk"), change=kind, lease_until__gte=now
        )
        rows = list(
            Announcement.objects.filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            .filter(given_up_at__isnull=True)
            .exclude(Q(change=kind) & Exists(older_out))
            .order_by("pk")
            .select_for_update()  # (no SKIP LOCKED: a row another run is counting a failure
            # on must be waited for, not passed over while the game's newer one is taken)
            .values_list("pk", "game_id", "change", "seqs", "details")[:batch]
        )
        if rows:
            Announcement.objects.filter(pk__in=[row[0] for row in rows]).update(lease_until=lease)
    moves: dict[int, tuple[list[int], list[int]]] = {}
    changes = []
    for pk, game_id, change, seqs, details in rows:
        if change == Announcement.Change.MOVES:
            pks, all_seqs = moves.setdefault(game_id, ([], []))
            pks.append(pk)
            all_seqs.extend(seqs)
        else:
            changes.append((pk, game_id, change, details))
    return len(rows), moves, changes, lease


def _behind_given_up(now: datetime) -> None:
    """Give up the moves rows behind a given-up moves row of their game (they wait for it:
    out of the claims' way, however many come; staff send the game's rows again together).
    One cheap look first: no row given up, nothing to do."""
    moves = Announcement.Change.MOVES
    given_up = Announcement.objects.filter(change=moves, given_up_at__isnull=False)
    if not given_up.exists():
        return
    older = given_up.filter(game=OuterRef("game"), pk__lt=OuterRef("pk"))
    Announcement.objects.filter(change=moves, given_up_at__isnull=True).filter(
        Exists(older)
    ).update(given_up_at=now, lease_until=None, last_error=BEHIND)


def announce_pending(batch: int = BATCH, *, recruit: Callable[[], Any] | None = None) -> int:
    """Announce every committed move and table change not yet announced; how many
    announcements were made.

    Moves: one signal per game, however many rows it has (the receivers look at the game
    as it is now, or as it was when the batch was claimed: the claimed moves were
    committed before), with the :class:`Batch` of the claim. Table changes: one signal
    each. Whatever a receiver fails on keeps its rows: the lease lapses and a later run
    tries again; the announced moves' rows are deleted once per batch (a worker that dies
    before leaves them: announced again, to idempotent receivers). ``recruit`` (the
    periodic task's) is called once when the first claim is full: more is waiting than one
    batch, and another run may take its share meanwhile (claims skip each other's rows)."""
    announced = 0
    first = True
    while True:
        count, moves, changes, lease = _claim(batch)
        if first and count == batch and recruit is not None:
            recruit()
        first = False
        claimed = Batch({game_id: sorted(set(seqs)) for game_id, (_, seqs) in moves.items()})
        done: list[int] = []
        for game_id, (pks, _) in moves.items():
            news = {"game_id": game_id, "seqs": claimed.games[game_id], "batch": claimed}
            error = _announce(moves_committed, **news)
            if error and len(claimed.games) > 1:  # (a read for the whole batch failed?)
                alone = Batch({game_id: claimed.games[game_id]})
                error = _announce(moves_committed, **{**news, "batch": alone})
            if error:
                _failed(pks, error, lease)
            else:
                done += pks
                announced += 1
        if done:
            Announcement.objects.filter(pk__in=done).delete()
        for pk, game_id, change, details in changes:
            error = _announce(table_changed, game_id=game_id, change=change, **details)
            if error:
                _failed([pk], error, lease)
            else:
                Announcement.objects.filter(pk=pk).delete()
                announced += 1
        if count < batch:
            return announced


def _announce(signal: Signal, **news: Any) -> str:
    """Send the signal; what failed (logged), or "" if every receiver took it."""
    answers = signal.send_robust(sender=None, **news)
    failed = [answer for _, answer in answers if isinstance(answer, Exception)]
    for exc in failed:
        log.error("announcing %s failed: %r", news, exc, exc_info=exc)
    return "; ".join(repr(exc) for exc in failed)


def _failed(pks: list[int], error: str, lease: datetime) -> None:
    """Count a failure on the rows this run still holds (``lease``: a run that outlived its
    lease leaves them to the run that took them). Their lease stands: they are tried again
    when it lapses. Rows failing for ``ANNOUNCEMENT_GIVE_UP_HOURS`` since their first
    failure, and at least ``GIVE_UP_AFTER`` times, are given up: no longer claimed, kept
    for staff (the admin shows them and sends them again). Nothing is lost, and a receiver
    that fails for good does not run every few minutes for ever. A game's later moves wait
    behind a failing moves row (``_claim``), and are given up with it."""
    now = timezone.now()
    failing = Announcement.objects.filter(pk__in=pks, lease_until=lease)
    failing.update(
        attempts=F("attempts") + 1,
        last_error=error[: Announcement._meta.get_field("last_error").max_length],
        failing_since=Coalesce("failing_since", Value(now)),
    )
    since = now - timedelta(hours=float(settings.ANNOUNCEMENT_GIVE_UP_HOURS))
    given_up = failing.filter(failing_since__lt=since, attempts__gte=GIVE_UP_AFTER).update(
        given_up_at=now, lease_until=None
    )
    if given_up:
        log.error("gave up announcing %s rows (%s): %s", given_up, pks, error)


def newer_moves_count() -> Coalesce:
    """For an annotation of announcements: how many newer moves rows of its game each one
    has. Behind a row that :func:`holds_back`, those are the rows it keeps back."""
    newer = (
        Announcement.objects.filter(
            game=OuterRef("game"), change=Announcement.Change.MOVES, pk__gt=OuterRef("pk")
        )
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(newer), 0)


def holds_back(row: Announcement) -> bool:
    """Whether the row keeps its game's newer moves back: a moves row failing or given up
    on its own account (not one held behind another, :data:`BEHIND`)."""
    out = row.failing_since is not None or row.given_up_at is not None
    return row.change == Announcement.Change.MOVES and out and row.last_error != BEHIND


def send_again(pks: list[int]) -> int:
    """Staff's retry of given-up announcements: claimable at the next run, their failures
    counted anew (a failure gives them up again only after the whole delay). A moves row
    takes every given-up moves row of its game with it: they go together, in order (one
    left behind would hold the others back again)."""
    moves = Announcement.Change.MOVES
    games = Announcement.objects.filter(pk__in=pks, change=moves).values("game")
    chosen = Q(pk__in=pks) | Q(change=moves, game__in=games)
    return Announcement.objects.filter(chosen, given_up_at__isnull=False).update(
        given_up_at=None, lease_until=None, attempts=0, last_error="", failing_since=None
    )
