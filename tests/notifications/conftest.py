"""A real SMTP server (aiosmtpd) for the notification tests, and helpers to play games."""

from __future__ import annotations

import email
import email.policy
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from games import services
from games.engines.registry import get_engine
from games.models import Game

WAIT = 20.0  # seconds: the longest any test waits for mail


class Inbox:
    """What the SMTP server received, parsed; ``wait_for(n)`` blocks (bounded) for n."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._arrived:
            self.messages.append(message)
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = WAIT) -> list[EmailMessage]:
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.messages) >= count, timeout=timeout)
            return list(self.messages)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server on 127.0.0.1 (a free port); Django's mail goes to it."""
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's chatter
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 10
    try:
        yield inbox
    finally:
        controller.stop()


def text_part(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


def html_part(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def whole(message: EmailMessage) -> str:
    """Every header and every decoded part, for scans."""
    headers = "\n".join(f"{k}: {v}" for k, v in message.items())
    parts = [str(p.get_content()) for p in message.walk() if not p.is_multipart()]
    return headers + "\n" + "\n".join(parts)


def play(game: Game, moves: int | None = None) -> list[int]:
    """Let whoever the game waits on play its first legal command, ``moves`` times (None:
    to the end); the seqs written."""
    engine = get_engine(game.game_type)
    seqs: list[int] = []
    done = 0
    while moves is None or done < moves:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.state is not None
        order = engine.to_act(game.state)[0]
        seat = game.seats.select_related("user").get(order=order)
        text = engine.format(engine.legal_commands(game.state, order)[0])
        result = services.submit_command(game=game.pk, user=seat.user, text=text)
        seqs += [m.seq for m in result.moves]
        done += 1
    game.refresh_from_db()
    return seqs


@pytest.fixture
def played() -> Callable[..., list[int]]:
    return play
