"""What the notifications app does when the games announce committed moves, and when the
inbound webhook (django-anymail) hands over a received email."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from notifications.tasks import notify_moves

log = logging.getLogger(__name__)


def enqueue_notices(sender: Any, *, game_id: int, seqs: list[int], **kwargs: Any) -> None:
    """Enqueue the emails the moves call for (ids only: the task reads the game itself)."""
    try:
        notify_moves.delay(game_id, seqs)
    except Exception:
        # The moves are committed whatever happens here: a broker outage must not turn a
        # successful move into an error. The player still gets the deadline reminder.
        log.exception("could not enqueue notifications for game #%s moves %s", game_id, seqs)


def receive_inbound(sender: Any, *, event: Any, esp_name: str, **kwargs: Any) -> None:
    """anymail's ``inbound`` signal: the email door, like ``manage.py receive_email``.

    Anymail checks the webhook secret (HTTP basic auth) before it sends the signal, but
    without a configured secret it accepts anyone: then we refuse. An exception here (the
    database, the answer's SMTP) becomes a 500, and the provider posts the message again."""
    from anymail.exceptions import AnymailWebhookValidationFailure

    from notifications.inbound import receive

    if not getattr(settings, "ANYMAIL", {}).get("WEBHOOK_SECRET"):
        log.error("inbound %s webhook refused: ANYMAIL WEBHOOK_SECRET is not set", esp_name)
        raise AnymailWebhookValidationFailure("the inbound webhook has no secret configured")
    outcome = receive(event.message)
    log.info("inbound %s webhook: %s %s", esp_name, outcome.status, outcome.reason)
