"""Trade offers by email (issue 11): who is told what, when an offer is proposed, answered,
executed, failed or expires. Each email is a claim row (``Notification``, kinds OFFER,
OFFER_ANSWER, OFFER_CLOSED), stored before it is sent and retried by the periodic task, as
every email of the app; an offer's email carries a reply address signed for that offer
(``notifications.addresses.offer_address``): the reply ``accept``, ``decline`` or a
counter-offer answers it (``notifications.offer_reply``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.utils import translation

from games.engines.lords_of_vegas.commands import Trade
from games.engines.lords_of_vegas.trades import in_words
from games.models import Game, Seat, TradeOffer
from games.services.lookups import engine_for
from games.services.naming import seat_label
from notifications.addresses import offer_address
from notifications.choices import muted_users
from notifications.emails import render_email
from notifications.models import Notification
from notifications.services import Notice, claim, failed, hold, send_stored, store

log = logging.getLogger(__name__)

Kind = Notification.Kind
CLOSING = frozenset({"executed", "failed", "declined", "withdrawn", "expired"})


def _who_hears(offer: TradeOffer, event: str, by: int | None) -> tuple[str, set[int]]:
    """The kind of email and the seat orders told of ``event``: a new offer, every party
    but the proposer; an acceptance, the proposer; a closing, every party and the proposer
    but whoever closed it (they know: the last acceptance that made or failed the trade was
    answered already, on the page or by email; they got a second email for one accept)."""
    everyone = {*offer.parties, offer.proposer.order}
    if event == "proposed":
        return Kind.OFFER, everyone - {offer.proposer.order}
    if event == "accepted":
        return Kind.OFFER_ANSWER, {offer.proposer.order} - {by}
    return Kind.OFFER_CLOSED, everyone - {by}


def tell(*, game_id: int, offer_id: int, event: str, by: int | None = None) -> int:
    """Email the players ``event`` concerns (idempotent: one row per player, offer and
    event); how many emails were sent."""
    if event not in CLOSING | {"proposed", "accepted"}:
        return 0
    offer = TradeOffer.objects.select_related("proposer__user", "game").filter(pk=offer_id).first()
    if offer is None:
        return 0
    game = offer.game
    kind, orders = _who_hears(offer, event, by)
    seats = list(game.seats.select_related("user", "user__email_preference").order_by("order"))
    muted = muted_users(game.pk)
    sent = 0
    for seat in seats:
        user = seat.user
        if seat.order not in orders or user is None or seat.is_bot or seat.resigned:
            continue
        if user.pk in muted or not user.is_active or not user.email:
            continue
        key = f"o{offer.pk}-{event}" + (f"-{by}" if kind == Kind.OFFER_ANSWER else "")
        sent += _send(game, offer, seats, Notice(seat, kind, key[:32]), event, by)
    return sent


def _send(
    game: Game, offer: TradeOffer, seats: list[Seat], notice: Notice, event: str, by: int | None
) -> int:
    note = claim(game, notice)
    if note is None:
        return 0
    if not note.subject:
        try:
            store(note, compose(game, offer, seats, notice.seat, event, by))
        except Exception as exc:
            log.exception("offer email %s for game #%s not composed", notice.key, game.pk)
            failed(note, exc)
            return 0
    if hold(note, notice.seat.user):
        return 0
    return int(send_stored(note))


ANSWERS = {"fr": ("accepter", "refuser"), "it": ("accetta", "rifiuta")}
"""The words a French or Italian player answers an offer with (``offer_reply`` reads
them, and the English ones): an email offers the reader's own, not every language's."""


def _in_words(game: Game, offer: TradeOffer, by_order: dict[int, Seat], language: str) -> list[str]:
    """The offer's steps as sentences in the reader's language (active), the board page's
    words: the email showed only the notation (found by play-testing)."""
    trade = engine_for(game).command_from_json(offer.command)
    if not isinstance(trade, Trade) or game.state is None:
        return []
    names = {s.colour: seat_label(s) for s in by_order.values() if s.colour}
    active = by_order.get(int(game.state.get("turn", -1)))
    said = in_words(trade, names, seat_label(active) if active else "", language)
    return [str(sentence) for sentence in said]


def compose(
    game: Game, offer: TradeOffer, seats: list[Seat], seat: Seat, event: str, by: int | None
) -> Any:
    """The email in its reader's language; an open offer's carries the offer's reply
    address, so that answering it is a reply."""
    user = seat.user
    assert user is not None
    language = user.language or settings.LANGUAGE_CODE
    by_order = {s.order: s for s in seats}
    with translation.override(language):
        engine = engine_for(game)
        context = {
            "game": game,
            "game_name": engine.name,
            "name": seat.name,
            "offer": offer,
            "event": event,
            "trade": offer.text,
            "in_words": _in_words(game, offer, by_order, language),
            "answers": ANSWERS.get(language.split("-")[0], ("", "")),
            "proposer": seat_label(offer.proposer, engine),
            "by": seat_label(by_order[by], engine) if by in by_order else "",
            "parties": [seat_label(by_order[o], engine) for o in offer.parties if o in by_order],
            "waiting_on": [
                seat_label(by_order[o], engine)
                for o in offer.parties
                if o not in offer.accepted_by and o in by_order
            ],
            "yours": seat.order in offer.parties and seat.order not in offer.accepted_by,
            "message": offer.message,
            "deadline": offer.expires_at,
        }
        email = render_email(
            f"offer_{'new' if event == 'proposed' else 'news'}",
            context,
            to=user.email,
            language=language,
            time_zone=user.time_zone,
            game_id=game.pk,
            seat_id=seat.pk,
            user_id=user.pk,
        )
    if offer.status == TradeOffer.Status.OPEN:
        email.reply_to = [offer_address(game.pk, seat.pk, offer.pk)]
    return email
