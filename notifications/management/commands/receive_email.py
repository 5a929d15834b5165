"""``manage.py receive_email < message.eml``: the mail server pipe of the email door.

Exit 0 when the message was handled (played, refused with an answer to the player, or
ignored); 75 (``EX_TEMPFAIL``) when the database could not be reached or the outgoing mail
server failed, so that the MTA keeps the message and delivers it again later (the
Message-ID makes that harmless); 65 (``EX_DATAERR``) for an empty message, or one the
database refuses to store (a fault of the message or ours that another delivery would only
repeat), or one over ``MAX_BYTES`` (read no further): logged, and the MTA returns it to its
sender. Postfix: see
``docs/decisions/0005-email-door.md``.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, BinaryIO

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from notifications.inbound import parse, receive, transient

log = logging.getLogger(__name__)

EX_TEMPFAIL = 75  # sysexits.h: "try again later"
EX_DATAERR = 65
MAX_BYTES = 25 * 1024 * 1024
"""The largest message read: the common mail services' limit (25 MB, attachments in base64
included); a move or a message is a few lines."""


def _binary(stream: Any) -> BinaryIO:
    """A bytes stream: ``sys.stdin.buffer`` for a text stdin, the stream itself otherwise."""
    buffer = getattr(stream, "buffer", None)
    return buffer if buffer is not None else stream


class Command(BaseCommand):
    help = "Read one email (raw RFC 5322 bytes) on stdin and play the commands it carries."
    stealth_options = ("stdin",)  # call_command(..., stdin=BytesIO(raw)) in tests

    def handle(self, *args: Any, **options: Any) -> None:
        raw = _binary(options.get("stdin") or sys.stdin).read(MAX_BYTES + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="surrogateescape")
        if len(raw) > MAX_BYTES:
            log.warning("receive_email: message refused: over %s bytes", MAX_BYTES)
            raise CommandError(
                f"message refused: too large (over {MAX_BYTES} bytes)", returncode=EX_DATAERR
            )
        if not raw.strip():
            raise CommandError("no message on stdin", returncode=EX_DATAERR)
        try:
            outcome = receive(parse(raw))
        except Exception as exc:
            if transient(exc):
                log.warning("receive_email: transient failure, the MTA will retry: %r", exc)
                raise CommandError(f"transient failure: {exc}", returncode=EX_TEMPFAIL) from exc
            if isinstance(exc, DatabaseError):  # it would fail the same way every time
                log.exception("receive_email: message refused: the database would not take it")
                raise CommandError(f"message refused: {exc}", returncode=EX_DATAERR) from exc
            raise  # a bug: exit 1, the MTA bounces the message, the traceback is logged
        self.stdout.write(f"{outcome.status}: {outcome.reason or ', '.join(outcome.commands)}")
