"""The players' event feed: what the event stream (``/api/v1/events/``) and the webhooks
carry, one :class:`~games.models.PlayerEvent` row per event and player.

Written where the games' outbox is drained (the receiver of ``hooks.moves_committed``, in
the worker, after the moves committed): a worker that dies before it wrote them leaves the
announcement, which a later run takes again, and the rows' keys make a second run write
nothing twice. Kinds: ``move`` (each committed move, to every seated player),
``your_turn`` (the game now waits on you), ``offer`` (what became of a trade offer, to
every seated player: the table sees the offers) and ``message`` (table talk, to the players
who may read it: a private message to its two players only, none to a player who muted its
author). Offers and messages reach the outbox as table changes (``hooks.table_changed``:
"offer", "message"); see docs/decisions/0018-clocks-and-channels.md.
"""

from __future__ import annotations

import base64
import logging
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.models import ChatMessage, Game, Move, PlayerEvent, Seat, TradeOffer, Webhook
from games.services.rows import transaction_lock

if TYPE_CHECKING:
    from games.services.hooks import Batch

log = logging.getLogger(__name__)

WRITE_LOCK = 0x10D5_0018
"""The advisory lock under which event rows are written: their ids (a sequence) then
commit in order, so a stream reading ``id > last`` never skips a row committed later."""


def record_moves(
    sender: Any = None,
    *,
    game_id: int,
    seqs: list[int],
    batch: Batch | None = None,
    **kwargs: Any,
) -> int:
    """The receiver of ``hooks.moves_committed``: a ``move`` event per move for every
    seated player, a ``your_turn`` event for each player the game now waits on. Returns
    how many rows were offered (those already written are skipped). With the drain's
    ``batch``, the rows of all its games are read (two queries) and written (one
    transaction) at its first game: see :func:`_write_batch`."""
    if batch is None:
        return write(_rows(game_id, seqs, _read_seated({game_id: seqs})))
    written = batch.kept("games.events.written", lambda: _write_batch(batch))
    if written is None:  # (the batch's write failed: each game on its own, as without one)
        return write(_rows(game_id, seqs, _seated(batch)))
    return written.get(game_id, 0)


def _write_batch(batch: Batch) -> dict[int, int] | None:
    """The rows of every game of ``batch``, written together: one transaction, one lock,
    one INSERT, one webhook flag UPDATE for the claim instead of one each per game (a
    drain run announces hundreds of games). How many rows each game offered; None if the
    write failed (logged): each game then writes its own, and fails on its own, so a
    failure keeps the announcements it concerns, as without a batch. The rows of the games
    announced later in the batch become visible a little earlier; their announcements are
    deleted after, as before, and a repeat writes nothing twice (the rows' keys)."""
    seated = _seated(batch)
    rows = {game_id: _rows(game_id, seqs, seated) for game_id, seqs in batch.games.items()}
    try:
        write([row for game_rows in rows.values() for row in game_rows])
    except DatabaseError:
        log.exception("the event feed's rows of %r: written game by game", batch)
        return None
    return {game_id: len(game_rows) for game_id, game_rows in rows.items()}


def _rows(game_id: int, seqs: list[int], seated: Seated) -> list[PlayerEvent]:
    """The game's rows for the announced ``seqs`` (none: no game, or nobody to tell)."""
    seats, moves = seated.get(game_id, ([], []))
    if not seats:
        return []
    status, version, deadline = seats[0][3:]
    wanted = set(seqs)
    rows = [
        PlayerEvent(
            user_id=user_id,
            game_id=game_id,
            kind="move",
            key=f"move:{game_id}:{seq}",
            data={
                "game": game_id,
                "seq": seq,
                "seat": order,
                "text": text,
                "source": source,
                "game_version": version,
                "status": status,
            },
        )
        for seq, order, text, source in moves
        if seq in wanted
        for user_id, *_ in seats
    ]
    if status == Game.Status.ACTIVE:
        turn = {
            "game": game_id,
            "version": version,
            "deadline": deadline.isoformat() if deadline else None,
        }
        rows += [
            PlayerEvent(
                user_id=user_id,
                game_id=game_id,
                kind="your_turn",
                key=f"turn:{game_id}:{version}",
                data=turn,
            )
            for user_id, to_act, bot, *_ in seats
            if to_act and not bot
        ]
    return rows


Seated = dict[int, tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]
"""For each game: its seats with a player (user id, to act, bot, and the game's status,
version and deadline) and its announced moves (seq, seat order, text, source)."""


def _seated(batch: Batch) -> Seated:
    return batch.kept("games.events", lambda: _read_seated(batch.games))


def _read_seated(games: dict[int, list[int]]) -> Seated:
    """The seats and announced moves of ``games`` (``{game id: seqs}``), in two queries."""
    found: Seated = {}
    for game_id, *seat in _told(Seat.objects.filter(game_id__in=list(games))).values_list(
        "game_id", "user_id", "to_act", "bot", "game__status", "game__version", "game__deadline"
    ):
        found.setdefault(game_id, ([], []))[0].append(tuple(seat))
    seqs = {seq for announced in games.values() for seq in announced if seq > 0}
    # A move older than the events' keeping time is not told (an announcement retried that
    # long would bring back events :func:`prune` took away, as news).
    fresh = timezone.now() - timedelta(days=settings.PLAYER_EVENTS_KEEP_DAYS)
    moves = Move.objects.filter(
        game_id__in=list(found), seq__in=seqs, created_at__gte=fresh
    ).values_list("game_id", "seq", "seat__order", "text", "source")
    for game_id, *move in moves:
        found[game_id][1].append(tuple(move))
    return found


def _told(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """The seats whose player hears of the game: a person with an account in use. A
    deleted account (inactive, its seat kept for the record) is told nothing more: its
    webhooks must not carry the table's talk to someone who left (found by QA)."""
    return seats.filter(user__isnull=False, user__is_active=True)


def record_table(sender: Any = None, *, game_id: int, change: str, **ids: Any) -> int:
    """The receiver of ``hooks.table_changed``: an ``offer`` event for each seated player
    when a trade offer changes, a ``message`` event for each player who may read a new
    message. Other changes (invited, joined, left) are not in the feed. Returns how many
    rows were offered."""
    if change == "offer":
        return write(_offer_rows(int(ids["offer_id"]), str(ids["event"]), ids.get("by")))
    if change == "message":
        return write(_message_rows(int(ids["message_id"])))
    return 0


def _offer_rows(offer_id: int, event: str, by: int | None) -> list[PlayerEvent]:
    """The offer's news for every seated player (the offers are shown to the whole table)."""
    offer = TradeOffer.objects.select_related("proposer").filter(pk=offer_id).first()
    if offer is None:
        return []
    data = {
        "game": offer.game_id,
        "offer": offer.pk,
        "event": event,
        "by": by,
        "proposer": offer.proposer.order,
        "parties": list(offer.parties),
        "text": offer.text,
        "status": offer.status,
    }
    users = _told(Seat.objects.filter(game_id=offer.game_id)).values_list("user_id", flat=True)
    return [
        PlayerEvent(
            user_id=user_id,
            game_id=offer.game_id,
            kind="offer",
            key=f"offer:{offer.pk}:{event}",
            data=data,
        )
        for user_id in users
        if user_id is not None
    ]


def _message_rows(message_id: int) -> list[PlayerEvent]:
    """A message for the players who may read it: the chat's own rule
    (``talk.visible_to``: to the table or between two players, not hidden, not from a
    player muted by the reader), asked for each seated player."""
    from games.services.talk import visible_to

    message = ChatMessage.objects.select_related("author", "to").filter(pk=message_id).first()
    if message is None:
        return []
    data = {
        "game": message.game_id,
        "message": message.pk,
        "seat": message.author.order,
        "to": message.to.order if message.to is not None else None,
        "private": message.to is not None,
        "text": message.text,
    }
    seats = _told(Seat.objects.filter(game_id=message.game_id))
    return [
        PlayerEvent(
            user_id=seat.user_id,
            game_id=message.game_id,
            kind="message",
            key=f"message:{message.pk}",
            data=data,
        )
        for seat in seats
        if seat.user_id is not None and visible_to(seat).filter(pk=message.pk).exists()
    ]


def write(rows: list[PlayerEvent]) -> int:
    """Insert the rows, skipping any already there (same player and key), under the
    write lock (so ids commit in order)."""
    if not rows:
        return 0
    with transaction.atomic():
        transaction_lock(WRITE_LOCK)
        PlayerEvent.objects.bulk_create(rows, ignore_conflicts=True)
        # Their webhooks have news: the periodic delivery reads only these (issue 15).
        Webhook.objects.filter(user_id__in={r.user_id for r in rows}, active=True).update(
            pending=True
        )
    return len(rows)


def events_after(user: Any, last: int, limit: int) -> list[PlayerEvent]:
    """The player's events after id ``last``, oldest first."""
    return list(PlayerEvent.objects.filter(user=user, id__gt=last).order_by("id")[:limit])


def newest_id(user: Any) -> int:
    """Where a stream without ``Last-Event-ID`` starts: after the newest event."""
    newest = PlayerEvent.objects.filter(user=user).order_by("-id").values_list("id", flat=True)
    return newest.first() or 0


PRUNE_BATCH = 5_000
"""Events deleted per statement: short statements, the writers never wait long."""


def prune(now: datetime | None = None) -> int:
    """Delete the events older than ``PLAYER_EVENTS_KEEP_DAYS`` (30 by default, as Stripe
    keeps its API's events): how many. Without it the table only grows. What is lost: a
    stream resumed with a ``Last-Event-ID`` older than that, or a webhook switched back on
    after as long, starts at the oldest event kept (a failing webhook is switched off
    within hours). The work is the old rows' only: the first event kept is found from the
    oldest id up (ids follow time: rows are written under one lock), then the rows before
    it go in batches along the primary key; a run with nothing old reads one row."""
    keep = timedelta(days=settings.PLAYER_EVENTS_KEEP_DAYS)
    cutoff = (now or timezone.now()) - keep
    by_id = PlayerEvent.objects.order_by("id")
    oldest = by_id.values_list("created_at", flat=True).first()
    if oldest is None or oldest >= cutoff:
        return 0
    ids = by_id.values_list("id", flat=True)
    first_kept = ids.filter(created_at__gte=cutoff).first()
    old = ids.filter(created_at__lt=cutoff) if first_kept is None else ids.filter(id__lt=first_kept)
    deleted, last = 0, 0
    # Each batch starts after the last one's ids: the index entries of rows just deleted
    # stay until a vacuum, and a batch that started from the lowest id again would walk
    # past all of them (quadratic when something holds the vacuum back).
    while batch := list(old.filter(id__gt=last)[:PRUNE_BATCH]):
        deleted += PlayerEvent.objects.filter(id__in=batch).delete()[0]
        last = batch[-1]
    return deleted


def new_webhook_secret() -> str:
    """A signing secret as Standard Webhooks writes it: ``whsec_`` and 24 random bytes
    (the notifications app signs and sends: notifications/outbound.py)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()
