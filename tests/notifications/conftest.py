"""A real SMTP server (aiosmtpd) for the notification tests, and helpers to play games."""

from __future__ import annotations

import email
import email.policy
import itertools
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


# -- the email door: replies as a mail client writes them ------------------------------------


def command_lines(message: EmailMessage, heading: str = "Your commands:") -> list[str]:
    """The lines a turn email shows under "Your commands:" (one per verb, choices summed
    up: "build B4|C2 albion|sphinx", "gamble B2 1-10, D5 1-4"); ``heading`` in the
    email's language ("Tes commandes\u00a0:")."""
    lines = text_part(message).split("\n")
    start = lines.index(heading) + 1
    shown = []
    for line in lines[start:]:
        if not line.startswith("  ") or line.strip().startswith(("...", "(")):
            break
        shown.append(line.strip())
    return shown


def commands_offered(message: EmailMessage) -> list[str]:
    """The commands a turn email offers, each written out (its summed-up lines expanded:
    "a|b" is a or b, "1-10" every amount, "D1=6|4" the lot's values)."""
    offered = []
    for line in command_lines(message):
        verb, _, rest = line.partition(" ")
        for group in rest.split(", ") if rest else [""]:
            choices = [alternatives(word) for word in group.split()]
            offered += [" ".join([verb, *words]) for words in itertools.product(*choices)]
    return offered


def alternatives(word: str) -> list[str]:
    if "-" in word and "|" not in word:
        low, high = word.split("-")
        return [str(n) for n in range(int(low), int(high) + 1)]
    lot, equals, values = word.rpartition("=")
    if equals:
        return [f"{lot}={value}" for value in values.split("|")]
    return word.split("|")


@pytest.fixture
def turn(make_game: Any, ada: Any, bob: Any, smtp: Inbox, settings: Any) -> Any:
    """A started Vegas game (Ada and Bob, the webhook's secret set), the turn email its
    first player got, and a command it offers."""
    from notifications.services import notify_game
    from tests.notifications.test_inbound_doors import SECRET

    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    return game, message, commands_offered(message)[0]


def reply_to(
    original: EmailMessage,
    body: str,
    *,
    sender: str | None = None,
    to: str | None = None,
    attribution: str | None = None,
    signature: str = "Ada\nSent with love",
    html: bool = False,
    charset: str = "utf-8",
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
) -> bytes:
    """The player's reply to ``original`` as a mail client sends it: ``body`` on top, the
    signature after "-- ", then the attribution line and the original quoted with "> "."""
    from email.utils import format_datetime, make_msgid

    from django.utils import timezone

    reply = EmailMessage()
    if sender != "":  # "": no From at all
        reply["From"] = sender if sender is not None else f"Ada Player <{original['To']}>"
    reply["To"] = to or str(original["Reply-To"])
    reply["Subject"] = f"Re: {original['Subject']}"
    reply["Date"] = format_datetime(timezone.now())
    reply["Message-ID"] = message_id or make_msgid(domain="mail.example.org")
    reply["In-Reply-To"] = original["Message-ID"]
    reply["References"] = f"{original['References']} {original['Message-ID']}"
    for name, value in (headers or {}).items():
        reply[name] = value
    when = original["Date"]
    attribution = attribution or f"On {when}, {original['From']} wrote:"
    quoted = "\n".join(f"> {line}".rstrip() for line in text_part(original).split("\n"))
    plain = f"{body}\n\n-- \n{signature}\n\n{attribution}\n{quoted}\n"
    if html:
        escaped = "<br>".join(body.split("\n"))
        original_html = html_part(original)
        reply.set_content(
            f"<html><body><div dir='ltr'>{escaped}</div><br><div class='gmail_quote'>"
            f"<div class='gmail_attr'>{attribution}<br></div>"
            f"<blockquote class='gmail_quote'>{original_html}</blockquote></div></body></html>",
            subtype="html",
            charset=charset,
        )
    else:
        reply.set_content(plain, charset=charset)
    return reply.as_bytes()


def deliver(raw: bytes) -> str:
    """Feed one raw message to ``manage.py receive_email`` on stdin; what it printed."""
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
    return out.getvalue()


def unanswered(game: Any, smtp: Inbox, printed: str = "ignored") -> None:
    """The door dropped a message: ``printed`` says ignored, nothing was played by email,
    no answer was stored or sent (the game's turn email is the only one)."""
    from games.models import Move
    from notifications.models import Notification

    assert printed.startswith("ignored"), printed
    assert not Move.objects.filter(game=game, source="email").exists()
    assert not Notification.objects.filter(kind=Notification.Kind.ANSWER).exists()
    assert len(smtp.wait_for(2, timeout=0.3)) == 1  # the turn email only
