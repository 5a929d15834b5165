"""What the notifications app does when the games announce committed moves."""

from __future__ import annotations

import logging
from typing import Any

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
