"""A reply to a trade offer's email (issue 11): its reply address is signed for one offer
and one seat (``notifications.addresses.offer_address``); the first line of the player's own
words answers it:

- ``accept`` (``accepter``, ``accetta``, ``accetto``, ``yes``, ``oui``, ``sì``, ``ok`` ...):
  accept it;
- ``decline`` (``refuser``, ``refuse``, ``rifiuta``, ``rifiuto``, ``no``, ``non``): decline it;
- a trade in the notation: a counter-offer, proposed by the player while the offer is open,
  in the transaction that declines the offer (both or neither).

People write "Oui, volontiers" or "No grazie": the line's first word answers, whatever
follows it. A line that is none of these is refused with what to write; the refusal comes
from the offer's address, so that replying to it answers the offer again.

Table talk lines (``say: ...``) are posted as in any reply. The answer says what was done or
why not, once per Message-ID, like the answers of ``notifications.inbound``; a redelivered
reply whose answer failed gets the answer of its first verdict, never a second judgment.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from email.message import EmailMessage
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games.engines.base import IllegalCommand
from games.engines.lords_of_vegas.notation import starts_like_trade
from games.models import Seat, TradeOffer
from games.services.errors import ServiceError
from games.services.lookups import engine_for
from games.services.trades import accept_trade, decline_trade, propose_trade
from notifications import talk_lines
from notifications.addresses import offer_address
from notifications.inbound import (
    ERROR_SHOWN,
    LINE_SHOWN,
    Outcome,
    _answer,
    _talk,
    answer_key,
    cut,
    idempotency_key,
    message_id,
    quoted,
    sender_address,
)
from notifications.models import Notification
from notifications.quotes import body_text, own_lines
from notifications.services import Notice

log = logging.getLogger(__name__)

ACCEPT = frozenset(
    {"accept", "accepter", "accepte", "j'accepte", "d'accord", "accetta", "accetto"}
    | {"yes", "oui", "si", "ok", "okay"}
)
DECLINE = frozenset({"decline", "refuser", "refuse", "rifiuta", "rifiuto", "no", "non"})
COURTESY = frozenset(
    {"merci", "beaucoup", "volontiers", "grazie", "mille", "volentieri", "thanks", "thank"}
    | {"you", "please", "je", "j", "i", "io", "bien", "sur", "certo", "sure", "of", "course"}
)
"""Words that may stand beside an answer ("Oui, volontiers", "No grazie", "I accept"):
a line with any other word is not read as an answer ("No problem", "Si tu ajoutes D2,
d'accord", "Non ho capito"), so that nothing is accepted or declined by a sentence."""
APOSTROPHE = "\N{RIGHT SINGLE QUOTATION MARK}"  # (as phones type "d'accord")
_WORDS = re.compile(r"[\w']+")


def _answer_in(line: str) -> str | None:
    """ "accept" or "decline" when the line says only that, in any of the three languages,
    with courtesies and punctuation ("Sì, accetto", "Non merci", "D'accord !"); None for
    anything else, which is then read as a counter-offer or refused with what to write."""
    plain = unicodedata.normalize("NFKD", line.replace(APOSTROPHE, "'").casefold())
    words = set(_WORDS.findall("".join(c for c in plain if not unicodedata.combining(c))))
    said = words - COURTESY
    if said and said <= ACCEPT:
        return "accept"
    if said and said <= DECLINE:
        return "decline"
    return None


def handle(
    message: EmailMessage, game_id: int, seat_id: int, offer_id: int, *, address: str
) -> Outcome:
    """Answer the offer as the seat's player (the sender must be them: else nothing is
    done and nothing answered, as for any reply)."""
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id, game_id=game_id).first()
    sender = sender_address(message)
    if seat is None or seat.user is None or sender != (seat.user.email or "").lower():
        log.warning("offer reply %s ignored: sender %s", message_id(message), sender)
        return Outcome("ignored", "sender is not the seat's player", game_id, seat_id)
    with translation.override(seat.user.language or settings.LANGUAGE_CODE):
        return _handle(message, seat, offer_id, address)


def _handle(message: EmailMessage, seat: Seat, offer_id: int, address: str) -> Outcome:
    key = idempotency_key(message)
    notice = Notice(seat, Notification.Kind.ANSWER, answer_key(key, address))
    prior = Notification.objects.filter(
        user=seat.user, game_id=seat.game_id, kind=notice.kind, key=notice.key
    ).first()
    if prior is not None and prior.status != Notification.Status.FAILED:
        return Outcome("duplicate", "already answered", seat.game_id, seat.pk)
    if prior is not None and prior.verdict:
        # The first verdict stands: the answer failed, not the judgment (a counter-offer
        # judged again would be proposed twice, or refused for the offer it declined).
        log.info("offer reply %s: resending its first answer", key)
        return _resend(message, seat, notice, offer_id, prior.verdict)
    said, lines = talk_lines.split(own_lines(body_text(message)))
    spoken = talk_lines.post(seat, said, key)
    words = [line for line in lines if line.strip()]
    first = words[0] if words else ""
    offer = TradeOffer.objects.filter(pk=offer_id, game_id=seat.game_id).first()
    try:
        if offer is None:
            raise ServiceError(_("there is no trade offer #%(offer)s") % {"offer": offer_id})
        done = _answer_offer(seat, offer, first)
    except ServiceError as exc:
        return _refused(message, seat, notice, offer_id, first, exc.message, spoken)
    return _done(message, seat, notice, first, done, words[1:], spoken)


def _done(
    message: EmailMessage,
    seat: Seat,
    notice: Notice,
    line: str,
    done: str,
    ignored: list[str],
    spoken: talk_lines.Talk | None,
) -> Outcome:
    """What was done, answered; the verdict keeps it, for a resend of a failed answer."""
    line, ignored = cut(line, LINE_SHOWN), quoted(ignored)
    context = {"done": done, "ignored": ignored, **_talk(spoken)}
    verdict = {"status": "played", "done": done, "received": [line], "ignored": ignored}
    answered = _answer(message, seat, notice, "answer_offer", context, verdict)
    return Outcome("played", done, seat.game_id, seat.pk, (line,), (), answered)


def _resend(
    message: EmailMessage, seat: Seat, notice: Notice, offer_id: int, verdict: dict[str, Any]
) -> Outcome:
    """The answer of the first verdict, sent again (its table talk was posted then)."""
    line = next(iter(verdict.get("received", [])), "")
    if verdict.get("status") == "refused":
        return _refused(message, seat, notice, offer_id, line, verdict["error"], None)
    done, ignored = verdict.get("done", ""), list(verdict.get("ignored", []))
    return _done(message, seat, notice, line, done, ignored, None)


def _refused(
    message: EmailMessage,
    seat: Seat,
    notice: Notice,
    offer_id: int,
    line: str,
    error: str,
    spoken: talk_lines.Talk | None,
) -> Outcome:
    """Nothing done: the answer says why and what to write, from the offer's address (a
    reply to it answers the offer; the turn's address would read it as moves)."""
    lines, error = ([cut(line, LINE_SHOWN)] if line else []), cut(error, ERROR_SHOWN)
    context = {"error": error, "received": lines, "ignored": [], "offer": offer_id}
    verdict = {"status": "refused", "error": error, "received": lines, "ignored": []}
    to = offer_address(seat.game_id, seat.pk, offer_id)
    context |= _talk(spoken)
    answered = _answer(message, seat, notice, "answer_refused", context, verdict, reply_to=to)
    return Outcome("refused", error, seat.game_id, seat.pk, tuple(lines), (), answered)


def _answer_offer(seat: Seat, offer: TradeOffer, line: str) -> str:
    """Do what the line says; the sentence that says what was done."""
    answer = _answer_in(line)
    if answer == "accept":
        answered = accept_trade(offer=offer, user=seat.user, source="email")
        if answered.status == TradeOffer.Status.EXECUTED:
            return _("You accepted trade offer #%(id)s: the trade is done.") % {"id": offer.pk}
        if answered.status == TradeOffer.Status.FAILED:
            return _("You accepted trade offer #%(id)s, but the trade failed: %(why)s") % {
                "id": offer.pk,
                "why": answered.message,
            }
        return _("You accepted trade offer #%(id)s; it waits on the other parties.") % {
            "id": offer.pk
        }
    if answer == "decline":
        decline_trade(offer=offer, user=seat.user)
        return _("You declined trade offer #%(id)s.") % {"id": offer.pk}
    if not line:
        raise ServiceError(
            _(
                "your reply does not answer trade offer #%(id)s: write accept, decline or a "
                "counter-offer (a trade in the notation) on its first line"
            )
            % {"id": offer.pk}
        )
    if not _a_trade(seat, line):
        raise ServiceError(
            _(
                "'%(line)s' does not answer trade offer #%(id)s: write accept or decline, or "
                "a counter-offer (a trade in the notation, like the offer: %(trade)s), on the "
                "first line of your reply"
            )
            % {"line": line, "id": offer.pk, "trade": offer.text}
        )
    # One change or none: the offer is declined first (refused if it is no longer open),
    # and the decline is undone if the counter-offer is refused.
    with transaction.atomic():
        decline_trade(offer=offer, user=seat.user)
        counter = propose_trade(game=seat.game_id, user=seat.user, text=line, source="email")
    return _(
        "You declined trade offer #%(id)s and proposed trade offer #%(counter)s instead: %(trade)s"
    ) % {"id": offer.pk, "counter": counter.pk, "trade": counter.text}


def _a_trade(seat: Seat, line: str) -> bool:
    """Whether the line reads as a trade (a counter-offer; whether the trade can be made is
    ``propose_trade``'s to say). Anything else is no answer: refusing it as an unknown
    command would tell the player that the notation was expected."""
    game = seat.game
    engine = engine_for(game)
    if starts_like_trade(line):
        return True  # (a mistyped trade: ``propose_trade`` says what is wrong with it)
    try:
        command = engine.parse(line, options=game.options)
    except IllegalCommand:
        return False
    if game.state is None:
        return False
    try:
        return engine.trade_parties(game.state, seat.order, command) is not None
    except IllegalCommand:  # (a trade naming a colour nobody plays)
        return True
