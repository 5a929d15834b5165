"""What the notifications app does when the games announce committed moves, and when the
inbound webhook (django-anymail) hands over a received email."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from games.services.hooks import Batch
from notifications import services, table

log = logging.getLogger(__name__)


def notify_players(
    sender: Any, *, game_id: int, seqs: list[int], batch: Batch | None = None, **kwargs: Any
) -> None:
    """Send the emails the committed moves call for. It runs where the games' outbox is
    drained (a worker), after the moves committed; it may run twice for the same moves (a
    lapsed claim), which the notification rows make harmless. An exception keeps the
    announcement for a later run. ``batch``: the drain's claim, read once for all its
    games."""
    if 0 in seqs:  # the game started: every seat told (the first to act: one email)
        table.tell_started(game_id=game_id)
    services.notify_game(game_id=game_id, batch=batch)


def tell_table(sender: Any, *, game_id: int, change: str, **ids: int) -> None:
    """The games' ``table_changed`` (from their outbox, after the commit): an invitation to
    send, a player who joined or left to tell the others of. Idempotent, like the moves'
    receiver: the invitation row and the notification rows are the claims."""
    if change == "invited":
        table.send_invitation(invitation_id=ids["invitation_id"])
    elif change in ("joined", "left"):
        table.tell_table(
            game_id=game_id, change=change, user_id=ids["user_id"], seat_id=ids["seat_id"]
        )
    elif change == "offer":  # a trade offer's news (issue 11: notifications.offers)
        from notifications import offers

        offers.tell(
            game_id=game_id, offer_id=int(ids["offer_id"]), event=str(ids["event"]), by=ids["by"]
        )


def receive_inbound(sender: Any, *, event: Any, esp_name: str, **kwargs: Any) -> None:
    """anymail's ``inbound`` signal: the email door, like ``manage.py receive_email``.

    Anymail checks the webhook secret (HTTP basic auth) before it sends the signal, but
    without a configured secret it accepts anyone: then we refuse. A failure that will pass
    (the database unreachable, the answer's SMTP) becomes a 500, and the provider posts the
    message again; a message the database will not take, on any post, is logged as refused
    and answered 200, so the provider does not post it again for days."""
    from anymail.exceptions import AnymailWebhookValidationFailure
    from django.db import DatabaseError

    from notifications.inbound import message_id, receive, transient

    if not getattr(settings, "ANYMAIL", {}).get("WEBHOOK_SECRET"):
        log.error("inbound %s webhook refused: ANYMAIL WEBHOOK_SECRET is not set", esp_name)
        raise AnymailWebhookValidationFailure("the inbound webhook has no secret configured")
    try:
        outcome = receive(event.message)
    except DatabaseError as exc:
        if transient(exc):
            raise
        log.exception(
            "inbound %s webhook: message %s refused: the database would not take it",
            esp_name,
            message_id(event.message) or "(no id)",
        )
        return
    log.info("inbound %s webhook: %s %s", esp_name, outcome.status, outcome.reason)
