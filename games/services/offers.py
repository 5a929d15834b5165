"""What becomes of open trade offers outside the trade use cases: the parties told of each
change (through the outbox), and offers that lapse when their turn ends or their time runs out.
The write path (``saving``) and the trade use cases (``trades``) both use it, so it imports
neither."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction

from games.engines.base import GameEngine, State
from games.models import Announcement, Game, TradeOffer
from games.services.hooks import announce_pending


def turn_of(engine: GameEngine, state: State) -> str:
    """The engine's turn marker as stored on an offer that lapses with its turn."""
    return repr(engine.turn_marker(state))


def expire_with_turn(
    game: Game, engine: GameEngine, before: State | None, after: State, now: datetime
) -> int:
    """When moves end a turn (the engine's ``turn_marker`` changes from ``before`` to
    ``after``), expire the game's open offers made in an earlier turn that have no expiry
    time of their own; in the moves' transaction (the caller holds the game lock), the
    parties told as by the sweep. Returns the count."""
    if not engine.trades or before is None:  # (a game without trades has no offers)
        return 0
    if engine.turn_marker(before) == engine.turn_marker(after):
        return 0
    due = (
        TradeOffer.objects.select_for_update()
        .filter(game=game, status=TradeOffer.Status.OPEN)
        .exclude(turn="")
        .exclude(turn=turn_of(engine, after))
    )
    return expire_all(list(due), now)


def expire(offer: TradeOffer, now: datetime) -> None:
    """Expire one offer found past its time by a use case; a conditional UPDATE, so if a
    sweep already claimed it nothing changes and the parties are not told twice."""
    claimed = TradeOffer.objects.filter(pk=offer.pk, status=TradeOffer.Status.OPEN).update(
        status=TradeOffer.Status.EXPIRED, resolved_at=now
    )
    offer.refresh_from_db()
    if claimed:
        tell(offer, "expired")


def expire_all(offers: list[TradeOffer], now: datetime) -> int:
    """Expire ``offers`` (locked by the caller) and have their parties told, once each."""
    TradeOffer.objects.filter(pk__in=[o.pk for o in offers]).update(
        status=TradeOffer.Status.EXPIRED, resolved_at=now, message="expired"
    )
    for offer in offers:
        tell(offer, "expired")  # the parties are told, once (the rows are claimed)
    return len(offers)


def tell(offer: TradeOffer, event: str, by: int | None = None) -> None:
    """Have the players told of what became of ``offer`` (proposed, accepted, declined,
    withdrawn, executed, failed, expired), once this transaction commits: through the
    games' outbox, as a table change "offer" (the notifications app emails the parties)."""
    details = {"offer_id": offer.pk, "event": str(event), "by": by}
    Announcement.objects.create(game_id=offer.game_id, change="offer", details=details)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(announce_pending)
