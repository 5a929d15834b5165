"""The email door: a player moves by replying to a turn email.

Both doors (``manage.py receive_email`` for a mail server pipe, and django-anymail's inbound
webhook) call :func:`receive` with the same kind of message, anymail's
``AnymailInboundMessage`` (the pipe's raw bytes go through :func:`parse`), read the same way:
one reply, one verdict, whichever door it came by. It

1. ignores automatic mail (auto-replies, bounces, lists), without an answer: no loops;
2. finds our signed reply address this copy was delivered to (else the sender's among the
   recipients) and checks that the sender is the seat's player (both, or the message is
   dropped without an answer: no backscatter);
3. takes the player's own lines (``notifications.quotes``) as commands and submits them
   through ``games.services.submit_command(source="email")`` with the Message-ID as the
   idempotency key, without an expected version;
4. answers once per Message-ID and address: "Played: ..." or the precise refusal, threaded under the
   player's message. The first verdict is recorded on the answer's row before sending; if
   the answer failed, a redelivery resends that verdict and never judges the message again.

See ``docs/decisions/0005-email-door.md``.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from typing import Any

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from games import selectors
from games.engines.base import GameEngine, IllegalCommand
from games.models import Game, Seat
from games.services.errors import ServiceError
from games.services.games import resign
from games.services.lookups import engine_for
from games.services.moves import MoveResult, submit_command
from games.services.naming import seat_label
from games.services.parsing import split_text
from notifications import talk_lines
from notifications.addresses import parse_digest_address, parse_offer_address, parse_reply_address
from notifications.emails import render_email, thread_root
from notifications.models import Notification
from notifications.quotes import body_text, own_lines, reply_lines
from notifications.resigning import resignation
from notifications.services import COMMANDS_SHOWN, Notice, claim, send_stored, store

log = logging.getLogger(__name__)

Kind = Notification.Kind
ENVELOPE_HEADERS = ("Delivered-To", "X-Original-To")  # (the MTA's: where this copy went)
RECIPIENT_HEADERS = ("To", "Cc")
EVENTS_SHOWN = 15
_LIST_PRECEDENCE = frozenset(["bulk", "junk", "list", "auto_reply"])
_DAEMONS = frozenset(["mailer-daemon", "postmaster"])


class AnswerNotSent(Exception):
    """The answer could not be sent (SMTP failed; its row is ``failed``): the door reports a
    transient failure, the MTA or the provider delivers the message again, the move is
    replayed by its key and the answer is sent then."""


@dataclass(frozen=True)
class Outcome:
    """What :func:`receive` did with a message.

    ``status``: "played" (the commands were applied), "refused" (the service refused them,
    or the body held none: the player got the reason), "ignored" (automatic mail, an unknown
    address, a wrong sender: nothing written, no answer), "duplicate" (this Message-ID was
    already answered: nothing done)."""

    status: str
    reason: str = ""
    game_id: int | None = None
    seat_id: int | None = None
    commands: tuple[str, ...] = ()
    seqs: tuple[int, ...] = field(default_factory=tuple)
    answered: bool = False


# -- reading the message -----------------------------------------------------------------------


def parse(raw: bytes) -> AnymailInboundMessage:
    """A raw message (the mail server pipe's) as the webhooks hand theirs over: anymail's
    message, parsed with the modern API (``get_body``, decoded headers)."""
    parsed = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    assert isinstance(parsed, AnymailInboundMessage)
    return parsed


def as_message(raw: bytes | Message) -> AnymailInboundMessage:
    """The message as both doors give it (bytes and other messages are parsed)."""
    if isinstance(raw, AnymailInboundMessage):
        return raw
    return parse(raw if isinstance(raw, bytes) else raw.as_bytes())


def transient(exc: BaseException) -> bool:
    """Whether a failure to handle a message will pass, so that the door asks for it again
    (exit 75, HTTP 500): the database unreachable or busy (a lost connection, a deadlock, a
    lock timeout), or the answer not sent. Anything else would fail the same way on every
    delivery, for days: the door logs it and refuses the message for good."""
    return isinstance(exc, (OperationalError, InterfaceError, AnswerNotSent))


def header(message: Message, name: str) -> str:
    value = message.get(name)
    return "" if value is None else " ".join(str(value).split())


def automatic(message: Message) -> str:
    """Why the message must not be answered (an auto-reply, a bounce, list mail), or ""."""
    submitted = header(message, "Auto-Submitted").split(";")[0].strip().lower()
    if submitted and submitted != "no":
        return f"Auto-Submitted: {submitted}"
    precedence = header(message, "Precedence").lower()
    if precedence in _LIST_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond"):
        if name in message:
            return f"{name} header"
    if header(message, "Return-Path") == "<>":
        return "null return path (a bounce)"
    if message.get_content_type() == "multipart/report":
        return "a delivery or read report"
    sender = sender_address(message)
    if not sender:
        return "no sender"
    if sender.partition("@")[0] in _DAEMONS:
        return f"sender {sender}"
    if sender.endswith("@" + settings.NOTIFICATIONS_REPLY_DOMAIN.lower()):
        return f"sender {sender} is one of our own addresses"
    return ""


def sender_address(message: Message) -> str:
    return parseaddr(header(message, "From"))[1].strip().lower()


def envelope_recipients(message: Message) -> list[str]:
    """Where this copy of the message was delivered, when the door knows: anymail's envelope
    recipient (Postmark's OriginalRecipient), the mail server's Delivered-To and
    X-Original-To. A message to two addresses is delivered once to each."""
    addresses = [a for _, a in getaddresses([header(message, n) for n in ENVELOPE_HEADERS])]
    envelope = getattr(message, "envelope_recipient", None)  # anymail's, when it knows it
    if isinstance(envelope, str) and envelope:
        addresses.insert(0, envelope)
    return [a for a in addresses if a]


def owner(address: str) -> str | None:
    """The email (lower-cased) of the player one of our signed addresses was made for (a
    turn's, a trade offer's, the digest's; "" for a seat without a player); None for any
    other address."""
    seat = parse_reply_address(address) or parse_offer_address(address)
    if seat is not None:
        found = Seat.objects.filter(pk=seat[1], game_id=seat[0]).values_list("user__email")
        return (found.first() or ("",))[0].lower()
    user_id = parse_digest_address(address)
    if user_id is None:
        return None
    return (User.objects.filter(pk=user_id).values_list("email", flat=True).first() or "").lower()


def addressed(message: Message) -> str:
    """The one signed address of ours this copy of the message answers ("" if none): the
    one it was delivered to, when the door knows (a message to two games is answered in
    each, whatever the order of To and Cc); else the first in To and Cc made for the
    sender (a friend's address before it does not drop the message); else the first, for
    the sender check to refuse."""
    for address in envelope_recipients(message):
        if owner(address) is not None:
            return address
    listed = [a for _, a in getaddresses([header(message, n) for n in RECIPIENT_HEADERS])]
    signed = {address: owner(address) for address in listed if address}
    ours = [address for address, email in signed.items() if email is not None]
    sender = sender_address(message)
    return next((a for a in ours if signed[a] == sender), ours[0] if ours else "")


def message_id(message: Message) -> str:
    """The Message-ID, or "" when it is not one: RFC 5322 ids are printable ASCII, and
    anything else (a NUL, an undecodable byte) could be neither stored nor sent back in
    the answer's ``In-Reply-To``."""
    mid = header(message, "Message-ID")
    return mid if mid.isascii() and mid.isprintable() else ""


def idempotency_key(message: Message) -> str:
    """The Message-ID (a redelivered email has the same one); a digest of the message when
    it has none, a very long one, or one that is not an id."""
    mid = message_id(message)
    if mid and len(mid) <= 200:
        return mid
    return "sha256:" + _digest(message)


def _digest(message: Message) -> str:
    """A digest of what a redelivery repeats: the headers (but the MIME structure's, whose
    boundary a webhook's message draws anew on each post) and each part's content."""
    digest = hashlib.sha256()
    for name, value in message.items():
        if name.lower() not in ("content-type", "mime-version"):
            digest.update(f"{name}: {value}\n".encode("utf-8", errors="surrogatepass"))
    for part in message.walk():
        payload = None if part.is_multipart() else part.get_payload(decode=True)
        if isinstance(payload, bytes):
            digest.update(payload)
    return digest.hexdigest()


def answer_key(key: str, address: str = "") -> str:
    """The Notification key of the answer to a message (32 characters); with ``address``,
    to its copy delivered there (a message to two of our addresses gets two answers)."""
    copy = f"{key}\n{address.lower()}" if address else key
    return "m" + hashlib.sha256(copy.encode()).hexdigest()[:31]


# -- the door ----------------------------------------------------------------------------------


def receive(raw: bytes | Message) -> Outcome:
    """Handle one incoming email (see the module's docstring). Database errors and
    :class:`AnswerNotSent` propagate: the door asks :func:`transient` whether to have the
    message delivered again, or to log it as refused."""
    message = as_message(raw)
    why = automatic(message)
    if why:
        log.info("inbound %s ignored: %s", message_id(message) or "(no id)", why)
        return Outcome("ignored", why)
    from notifications import digest_reply  # (it uses this module's answer helpers)

    address = addressed(message)
    digest_user = parse_digest_address(address)
    if digest_user is not None:  # a reply to the daily digest: several games at once
        key, sender = idempotency_key(message), sender_address(message)
        return digest_reply.handle(message, digest_user, key, sender, message_id(message))
    from notifications import offer_reply  # (it uses this module's answer helpers)

    offered = parse_offer_address(address)
    if offered is not None:  # a reply to a trade offer's email (issue 11)
        return offer_reply.handle(message, *offered, address=address)
    found = parse_reply_address(address)
    if found is None:
        log.warning("inbound %s ignored: no valid reply address", message_id(message))
        return Outcome("ignored", "no valid reply address")
    game_id, seat_id = found
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id, game_id=game_id).first()
    sender = sender_address(message)
    if seat is None or seat.user is None or sender != (seat.user.email or "").lower():
        log.warning(
            "inbound %s for game #%s seat %s ignored: sender %s is not the seat's player",
            message_id(message),
            game_id,
            seat_id,
            sender,
        )
        return Outcome("ignored", "sender is not the seat's player", game_id, seat_id)
    # The refusal a service raises is worded when raised: in the player's language.
    with translation.override(seat.user.language or settings.LANGUAGE_CODE):
        return _handle(message, seat, address)


def _handle(message: EmailMessage, seat: Seat, address: str) -> Outcome:
    key = idempotency_key(message)
    user = seat.user
    notice = Notice(seat, Kind.ANSWER, answer_key(key, address))
    prior = Notification.objects.filter(
        user=user, game_id=seat.game_id, kind=Kind.ANSWER, key=notice.key
    ).first()
    if prior is not None and prior.status != Notification.Status.FAILED:
        log.info("inbound %s already answered", key)
        return Outcome("duplicate", "already answered", seat.game_id, seat.pk)
    verdict = prior.verdict if prior is not None else None
    if verdict and verdict.get("status") == "refused":
        # The first verdict stands: the answer failed, not the judgment. Judging the
        # message again against the game as it is now could apply it days later.
        log.info("inbound %s: resending its first answer (refused)", key)
        return _refused(
            message,
            seat,
            notice,
            list(verdict["received"]),
            verdict["error"],
            list(verdict.get("ignored", [])),
        )
    if verdict and verdict.get("status") == "resigned":  # (its answer failed: send it again)
        answered = _answer(message, seat, notice, "answer_resigned", {}, verdict)
        return Outcome("played", "", seat.game_id, seat.pk, (), (), answered)
    # (``receive`` calls this in the player's language: the refusals are worded in it.)
    asked = resignation(reply_lines(body_text(message)), seat.game_id)
    if asked is not None:  # "resign game <n>" (notifications.resigning)
        return _resign(message, seat, notice, reply_lines(body_text(message))[:1], asked)
    # Table talk first ("say: ...", "to Bob: ...": notifications.talk_lines), whatever
    # becomes of the commands; the other lines are read as commands.
    said, lines = talk_lines.split(own_lines(body_text(message)))
    spoken = talk_lines.post(seat, said, key)
    try:
        reading = read_reply(lines, engine_for(seat.game))
    except ServiceError as exc:  # the game's engine is not available
        return _refused(message, seat, notice, reply_lines(body_text(message)), exc.message)
    if not reading.commands and spoken:
        return _said(message, seat, notice, spoken, reading.ignored)
    if not reading.commands:
        # Nothing to play: its lines are shown as received, with why none is a command.
        return _refused(message, seat, notice, reading.ignored, _no_command(reading))
    try:
        result = submit_command(
            game=seat.game_id,
            user=user,
            text="\n".join(reading.commands),
            source="email",
            idempotency_key=key,
        )
    except ServiceError as exc:
        return _refused(
            message, seat, notice, reading.commands, exc.message, reading.ignored, spoken
        )
    return _played(message, seat, notice, reading, result, spoken)


@dataclass(frozen=True)
class Reading:
    """A reply read: the lines taken as its commands, and the lines ignored after them."""

    commands: list[str]
    ignored: list[str]
    reason: str = ""  # why the first line is not a command, when none is


def read_reply(lines: list[str], engine: GameEngine) -> Reading:
    """The commands of a reply's own lines (``quotes.own_lines``: blanks kept as "").

    People sign their mail: "Thanks,", "Grazie,", a name, "Sent from my phone", below the
    commands, after a blank line or right under them. Refusing the reply for that line
    would refuse most replies. So the commands are read from the top; the reading stops at
    the first blank line after at least one command, and the trailing run of lines that are
    not commands is ignored (the answer lists what was). Whether a line is a command is
    the engine's parse (the quote-stripping cannot know a game's verbs). A line that is not
    a command *among* the commands stays in them, so the service refuses the whole reply
    and says which line: a typo never silently drops a move. With no command at all, every
    line is kept as received and ``reason`` says why the first one is not a command."""
    block: list[str] = []
    after: list[str] = []
    commands_seen = False
    for index, line in enumerate(lines):
        if not line:
            if commands_seen:
                after = [rest for rest in lines[index:] if rest]
                break
            continue
        block.append(line)
        commands_seen = commands_seen or _holds_command(line, engine)
    if not commands_seen:
        return Reading(commands=[], ignored=block, reason=_why_not(block, engine))
    end = len(block)
    while not _holds_command(block[end - 1], engine):
        end -= 1
    return Reading(commands=block[:end], ignored=block[end:] + after)


def _holds_command(line: str, engine: GameEngine) -> bool:
    """Whether the engine reads a command in the line (one of its ``;``-separated parts:
    a bad part among good ones is the service's to refuse, with its number)."""
    return any(_why_not([part], engine) == "" for part in split_text(line))


def _why_not(lines: list[str], engine: GameEngine) -> str:
    """The engine's reason why the first line is not a command ("" if it is, or no line)."""
    if not lines:
        return ""
    try:
        engine.parse(lines[0])
    except IllegalCommand as exc:
        return str(exc)
    return ""


def _no_command(reading: Reading) -> str:
    """The refusal of a reply without a command: what to write, and why its first line is
    not one (a lone mistyped command reads as a greeting would)."""
    if not reading.reason:
        return _(
            "your reply holds no command: write your commands at the top of your reply, "
            "one per line (or separated by ';'), above the quoted email"
        )
    return _(
        "%(reason)s; your reply holds no command: write your commands at the top of your "
        "reply, one per line (or separated by ';'), above the quoted email"
    ) % {"reason": reading.reason}


def _resign(
    message: EmailMessage, seat: Seat, notice: Notice, lines: list[str], refusal: str
) -> Outcome:
    """Resign by email (``notifications.resigning``): ``games.services.resign``, answered
    with what it means; a second time is refused (it would change nothing)."""
    if refusal:
        return _refused(message, seat, notice, lines, refusal)
    if seat.resigned:
        error = f"you already resigned from game #{seat.game_id}: nothing was changed"
        return _refused(message, seat, notice, lines, error)
    try:
        resign(game=seat.game_id, user=seat.user, source="email")
    except ServiceError as exc:
        return _refused(message, seat, notice, lines, exc.message)
    answered = _answer(message, seat, notice, "answer_resigned", {}, {"status": "resigned"})
    return Outcome("played", "", seat.game_id, seat.pk, tuple(lines), (), answered)


def _refused(
    message: EmailMessage,
    seat: Seat,
    notice: Notice,
    lines: list[str],
    error: str,
    ignored: list[str] | None = None,
    spoken: talk_lines.Talk | None = None,
) -> Outcome:
    ignored = ignored or []
    context = {"error": error, "received": lines, "ignored": ignored, **_talk(spoken)}
    verdict = {"status": "refused", "error": error, "received": lines, "ignored": ignored}
    answered = _answer(message, seat, notice, "answer_refused", context, verdict)
    return Outcome("refused", error, seat.game_id, seat.pk, tuple(lines), (), answered)


def _talk(spoken: talk_lines.Talk | None) -> dict[str, list[str]]:
    """The answer's account of the reply's messages: posted, and refused with why."""
    if spoken is None:
        return {"said": [], "said_refused": []}
    return {"said": spoken.posted, "said_refused": spoken.refused}


def _said(
    message: EmailMessage, seat: Seat, notice: Notice, spoken: talk_lines.Talk, ignored: list[str]
) -> Outcome:
    """A reply of messages only (no command): posted, and the player told what was."""
    context = {"ignored": ignored, **_talk(spoken)}
    answered = _answer(message, seat, notice, "answer_said", context, {"status": "said"})
    status = "said" if spoken.posted else "refused"
    reason = "; ".join(spoken.refused)
    return Outcome(status, reason, seat.game_id, seat.pk, tuple(spoken.posted), (), answered)


def _played(
    message: EmailMessage,
    seat: Seat,
    notice: Notice,
    reading: Reading,
    result: MoveResult,
    spoken: talk_lines.Talk | None = None,
) -> Outcome:
    answer = selectors.submission_answer(result=result, user=seat.user)
    seats = list(Seat.objects.filter(game_id=seat.game_id).select_related("user"))
    by_order = {s.order: s for s in seats}
    moves = answer["moves"]
    sentences = [sentence for m in moves for sentence in m["described"]]
    context = {
        "played": [m["text"] for m in moves if m["seat"] == seat.order],
        "events": sentences[:EVENTS_SHOWN],
        "events_omitted": max(0, len(sentences) - EVENTS_SHOWN),
        "finished": answer["status"] == Game.Status.FINISHED,
        "your_turn": answer["your_turn"],
        "waiting_on": [seat_label(by_order[o]) for o in answer["to_act"] if o in by_order],
        "replayed": result.replayed,
        "ignored": reading.ignored,
        **_talk(spoken),
        **_still_yours(seat, answer),
    }
    answered = _answer(message, seat, notice, "answer_played", context, {"status": "played"})
    seqs = tuple(m["seq"] for m in moves)
    commands = tuple(reading.commands)
    return Outcome("played", "", seat.game_id, seat.pk, commands, seqs, answered)


def _still_yours(seat: Seat, answer: dict[str, Any]) -> dict[str, Any]:
    """When the game still waits on the player right after their commands (Lords of Vegas:
    the turn goes on until ``end``), the answer carries the board and their commands: no
    new 'your turn' email comes for the same turn. Only while the game is still at the
    answer's version (a replayed answer to a game that moved on shows none)."""
    game = Game.objects.get(pk=seat.game_id)
    if not answer["your_turn"] or game.version != answer["version"]:
        return {"board": "", "commands": [], "more_commands": 0, "example": ""}
    view = selectors.game_view(game=game, user=seat.user)
    legal = [c["text"] for c in view["legal_commands"]]
    return {
        "board": view["text"],
        "commands": legal[:COMMANDS_SHOWN],
        "more_commands": max(0, len(legal) - COMMANDS_SHOWN),
        "example": legal[0] if legal else "",
        "deadline": game.deadline,
    }


# -- the answer --------------------------------------------------------------------------------


def _answer(
    message: EmailMessage,
    seat: Seat,
    notice: Notice,
    template: str,
    context: dict[str, Any],
    verdict: dict[str, Any],
    *,
    reply_to: str = "",
) -> bool:
    """Send the answer once per incoming Message-ID (the Notification row is the claim,
    and carries the verdict before anything is sent). The answer is stored on the row
    before the SMTP conversation, so a failed send is retried by the periodic task (and by
    the message's redelivery) as the same email. ``reply_to``: where a reply to the answer
    goes, when not to the seat's turn address (an answer about a trade offer: its offer's,
    so that the player's next try answers the offer again)."""
    game = Game.objects.get(pk=seat.game_id)
    note = claim(game, notice, verdict=verdict)
    if note is None:
        return False
    user = seat.user
    assert user is not None
    theirs = message_id(message)
    if not note.subject:
        with translation.override(user.language or settings.LANGUAGE_CODE):
            email_message = render_email(
                template,
                {**context, "game": game, "game_name": engine_for(game).name, "name": seat.name},
                to=user.email,
                language=user.language or settings.LANGUAGE_CODE,
                time_zone=user.time_zone,
                game_id=game.pk,
                seat_id=seat.pk,
                user_id=user.pk,
            )
        if reply_to:
            email_message.reply_to = [reply_to]
        root = thread_root(game.pk)
        if theirs:
            email_message.extra_headers["In-Reply-To"] = theirs
            email_message.extra_headers["References"] = f"{root} {theirs}"
        # RFC 3834: an automatic answer to a person's message.
        email_message.extra_headers["Auto-Submitted"] = "auto-replied"
        store(note, email_message)
    if not send_stored(note):
        note.refresh_from_db()
        raise AnswerNotSent(note.error)
    return True
