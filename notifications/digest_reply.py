"""A reply to the daily digest: commands for several games in one email, each line starting
with the game's number (``#12 build B4``).

The digest's reply address is signed per user (``addresses.digest_address``), so the door
(``notifications.inbound.receive``) hands such a message here once it checked it is not
automatic mail. The sender must be the user. Each game is judged on its own: its lines go
to ``games.services.submit_command(source="email")`` as one submission, keyed by the
Message-ID and the game, so a redelivered reply replays instead of playing twice. One
answer gives a verdict per game; it is a game-less ``Notification`` (kind
``digest_answer``) that carries the verdicts, created with the email stored on it, so a
failed answer is resent as it was, never judged again. See
``docs/decisions/0017-email-choices-and-digest.md``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Seat
from games.services.errors import ServiceError
from games.services.moves import submit_command
from notifications import leases, services
from notifications.models import Notification
from notifications.quotes import body_text, own_lines

log = logging.getLogger(__name__)

Kind = Notification.Kind
GAME_LINE = re.compile(r"#\s*(\d{1,18})\s*[:.,-]?\s+(\S.*)")
MAX_GAMES = 20
"""Games one reply may play in (more is refused whole: nobody has that many at once)."""


@dataclass
class Reading:
    """The reply's lines, read: the commands per game (in the order the games come) and
    the lines that start with no game number (sign-offs, greetings: listed, not played)."""

    games: dict[int, list[str]] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)


def read(lines: list[str]) -> Reading:
    """``#12 build B4`` lines, grouped per game; the other non-blank lines ignored."""
    reading = Reading()
    for line in lines:
        match = GAME_LINE.fullmatch(line.strip())
        if match is None:
            if line.strip():
                reading.ignored.append(line.strip())
            continue
        reading.games.setdefault(int(match[1]), []).append(match[2].strip())
    return reading


def handle(message: EmailMessage, user_id: int, key: str, sender: str, their_id: str) -> Any:
    """Judge each game of the reply and answer once (the door's ``Outcome``)."""
    from notifications.inbound import Outcome, answer_key

    user = User.objects.filter(pk=user_id).first()
    if user is None or not user.is_active or sender != (user.email or "").lower():
        log.warning("digest reply %s ignored: sender %s is not the player", their_id, sender)
        return Outcome("ignored", "sender is not the digest's player")
    note_key = answer_key(key)
    prior = Notification.objects.filter(
        user=user, game=None, kind=Kind.DIGEST_ANSWER, key=note_key
    ).first()
    if prior is not None:
        return _again(prior)
    with translation.override(user.language or settings.LANGUAGE_CODE):
        reading = read(own_lines(body_text(message)))
        verdicts = judge(user, reading, note_key)
        note = _claim(user, note_key, their_id, reading, verdicts)
    if note is None:  # (a racing delivery of the same message answered it)
        return Outcome("duplicate", "already answered")
    _send(note)
    played = any(v["status"] == "played" for v in verdicts)
    return Outcome("played" if played else "refused", "", answered=True)


def judge(user: Any, reading: Reading, note_key: str) -> list[dict[str, Any]]:
    """One verdict per game, each judged on its own (a refusal in one game plays the
    others)."""
    if not reading.games:
        error = _(
            "your reply holds no command: start each line with the game's number, "
            "for example: #12 build B4"
        )
        return [{"game": None, "status": "refused", "error": error, "received": []}]
    if len(reading.games) > MAX_GAMES:
        error = _("a reply may play in at most %(n)s games") % {"n": MAX_GAMES}
        return [{"game": None, "status": "refused", "error": error, "received": []}]
    return [
        _judge_game(user, game_id, commands, f"{note_key}g{game_id}")
        for game_id, commands in reading.games.items()
    ]


def _judge_game(user: Any, game_id: int, commands: list[str], key: str) -> dict[str, Any]:
    verdict: dict[str, Any] = {"game": game_id, "received": commands}
    if not Seat.objects.filter(game_id=game_id, user=user).exists():
        error = _("you do not play in game #%(game)s") % {"game": game_id}
        return {**verdict, "status": "refused", "error": error}
    try:
        result = submit_command(
            game=game_id,
            user=user,
            text="\n".join(commands),
            source="email",
            idempotency_key=key,
        )
    except ServiceError as exc:
        return {**verdict, "status": "refused", "error": str(exc.message)}
    seat = Seat.objects.get(game_id=game_id, user=user)
    played = [m.text for m in result.moves if m.seat_id == seat.pk]
    return {**verdict, "status": "played", "played": played or commands}


def _claim(
    user: Any, key: str, their_id: str, reading: Reading, verdicts: list[dict[str, Any]]
) -> Notification | None:
    """The answer's row, created with its verdicts and its email stored (one transaction);
    None when a racing delivery created it first."""
    from notifications.digest import render_personal

    context = {"name": user.name, "verdicts": verdicts, "ignored": reading.ignored}
    message = render_personal("digest_answer", context, user=user, in_reply_to=their_id)
    note = Notification(
        user=user,
        game=None,
        kind=Kind.DIGEST_ANSWER,
        key=key,
        version=0,
        verdict={"status": "digest", "games": verdicts},
        due_at=timezone.now() + leases.lease(),
    )
    try:
        with transaction.atomic():
            note.save(force_insert=True)
            services.store(note, message)
    except IntegrityError:
        return None
    return note


def _send(note: Notification) -> None:
    from notifications.inbound import AnswerNotSent, quieted

    if quieted(note):
        return
    if not services.send_stored(note):
        note.refresh_from_db()
        raise AnswerNotSent(note.error)


def _again(prior: Notification) -> Any:
    """A redelivered reply: its first verdicts stand; a failed answer is sent again as
    stored, an answered one is not."""
    from notifications.inbound import Outcome

    if prior.status != Notification.Status.FAILED:
        return Outcome("duplicate", "already answered")
    note = services.take_back(prior.pk, Q(status=Notification.Status.FAILED), timezone.now())
    if note is not None:
        _send(note)
    return Outcome("played", "", answered=True)
