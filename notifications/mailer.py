"""One SMTP connection for all the emails of a worker task, instead of one per email.

Opening a connection (TCP, greeting, EHLO, maybe STARTTLS and AUTH) and closing it cost
more than sending one small message on it: a drain run that sends hundreds of 'your turn'
emails keeps one open (:func:`kept_open`, entered around every Celery task by
``notifications.apps``) and sends them one at a time on it. One at a time still: each email
is marked sent after the server's answer to it, so a worker killed mid-run has at most one
message in flight (docs/decisions/0012: at most one duplicate per crash).

A refused recipient or message (``SMTPRecipientsRefused``, ``SMTPSenderRefused``,
``SMTPDataError``: smtplib resets the transaction before raising) fails that email only;
the connection stays for the next one. Any other error (a dropped connection, a timeout)
closes it: the next email opens a new one. A connection idle for a while is checked with
NOOP before it is used again (servers drop idle clients). Outside a task (the web
process, the tests' eager tasks without a worker) nothing is kept: each email opens its own
connection, as Django's ``EmailMessage.send`` does.
"""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.core.mail import EmailMessage, get_connection

CHECK_AFTER = 5.0
"""Seconds of idleness after which a kept connection is checked (NOOP) before use."""

KEEPS_CONNECTION = (
    smtplib.SMTPRecipientsRefused,
    smtplib.SMTPSenderRefused,
    smtplib.SMTPDataError,
)
"""Refusals of one message: smtplib has reset the transaction, the connection is usable."""


class _Kept(threading.local):
    depth = 0
    connection: Any = None
    used = 0.0


_kept = _Kept()


@contextmanager
def kept_open() -> Iterator[None]:
    """Within: :func:`send` reuses one connection, opened at the first email and closed when
    the outermost ``kept_open`` ends (they nest: an eager task inside a task)."""
    begin()
    try:
        yield
    finally:
        end()


def begin() -> None:
    _kept.depth += 1


def end() -> None:
    _kept.depth = max(_kept.depth - 1, 0)
    if _kept.depth == 0:
        _drop()


def send(message: EmailMessage) -> None:
    """Send one message (raises what the backend raised); on the kept connection if
    within :func:`kept_open`, else on a connection of its own."""
    if _kept.depth == 0:
        message.send()
        return
    connection = _connection()
    try:
        connection.send_messages([message])
    except KEEPS_CONNECTION:
        raise
    except BaseException:
        _drop()
        raise
    _kept.used = time.monotonic()


def _connection() -> Any:
    """The kept connection, opened (or checked, after a pause) as needed."""
    connection = _kept.connection
    if connection is not None and time.monotonic() - _kept.used > CHECK_AFTER:
        smtp = getattr(connection, "connection", None)
        try:
            if smtp is not None:
                smtp.noop()
        except (smtplib.SMTPException, OSError):
            _drop()
            connection = None
    if connection is None:
        connection = get_connection(fail_silently=False)
        connection.open()
        _kept.connection = connection
    _kept.used = time.monotonic()
    return connection


def _drop() -> None:
    """Close the kept connection, if any (a failing QUIT on a broken one is ignored)."""
    connection, _kept.connection = _kept.connection, None
    if connection is None:
        return
    with suppress(smtplib.SMTPException, OSError):
        connection.close()
