"""Trade offers: a trade is never applied straight from one player. It becomes an offer that
every party must accept; the last acceptance executes it through the engine, in the same
locked transaction and log as any move."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines.base import Command, GameEngine, IllegalCommand
from games.engines.text import from_json
from games.models import Game, Seat, TradeOffer
from games.services.errors import (
    GameNotActive,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    NotFound,
    TooManyOffers,
)
from games.services.lookups import engine_for, lock_game, require_active, seat_of
from games.services.movelog import SOURCES, Entry
from games.services.moves import commit_commands
from games.services.naming import seat_label
from games.services.offers import expire, expire_all, tell, turn_of
from games.services.parsing import parse_commands


def propose_trade(
    *,
    game: Game | int,
    user: Any,
    text: str | None = None,
    command: Mapping[str, Any] | None = None,
    source: str = "api",
    expires_at: datetime | None = None,
) -> TradeOffer:
    """Offer a trade; the proposer's acceptance is implied. The engine must accept it as
    it stands now (checked by applying it to a copy; nothing is written to the log).
    ``source``: the door, logged on the executing Move should the proposer be its only
    party (as ``accept_trade`` logs the last acceptance's). ``expires_at``: when the offer
    lapses, in the future and within :data:`LONGEST_EXPIRY`; by default it lapses when the
    turn it was made in ends (:func:`expire_with_turn`), at the latest at that turn's
    deadline; a trade with a step of the active player's lapses with its turn whatever its
    ``expires_at`` (:func:`lapses_with_turn`). A proposer has at most
    :data:`MOST_OPEN_OFFERS` open offers in a game."""
    if source not in SOURCES:
        raise InvalidRequest(_("unknown source '%(source)s'") % {"source": source})
    expires_at = checked_expiry(expires_at, timezone.now())
    with transaction.atomic():
        locked = lock_game(game)
        seat = _trading_seat(locked, user)  # (a stranger learns nothing of the game's state)
        require_active(locked)
        engine = engine_for(locked)
        commands = parse_commands(engine, text=text, command=command, options=locked.options)
        if len(commands) != 1:
            raise InvalidRequest(
                _("%(count)s commands given: propose one trade at a time")
                % {"count": len(commands)}
            )
        trade = commands[0]
        assert locked.state is not None
        formatted = engine.format(trade)
        try:
            parties = engine.trade_parties(locked.state, seat.order, trade)
        except IllegalCommand as exc:  # (a colour nobody plays in this game)
            raise IllegalMove(str(exc), command=formatted) from exc
        if parties is None:
            raise IllegalMove(
                _("%(command)s is not a trade: submit it as a move") % {"command": formatted},
                command=formatted,
            )
        _refuse_resigned_parties(locked, parties, formatted)
        if not set(parties) <= {seat.order}:  # (else it executes now and is never open)
            _refuse_too_many_offers(locked, seat)
        try:
            _state, events = engine.apply(locked.state, None, trade)
        except IllegalCommand as exc:
            raise IllegalMove(str(exc), command=formatted) from exc
        stopped = stop_reason(before_chance(engine, events))
        if stopped is not None:
            raise IllegalMove(
                _("%(command)s: as things stand it would stop: %(why)s")
                % {"command": formatted, "why": stopped},
                command=formatted,
            )
        offer = TradeOffer.objects.create(
            game=locked,
            proposer=seat,
            command=trade.to_json(),
            text=formatted,
            parties=sorted(parties),
            accepted_by=[seat.order] if seat.order in parties else [],
            expires_at=expires_at or end_of_turn(locked),
            turn=turn_of(engine, locked.state) if lapses_with_turn(trade, expires_at) else "",
        )
        if set(offer.parties) <= set(offer.accepted_by):
            _execute(locked, offer, source)
            tell(offer, offer.status, seat.order)
        else:
            tell(offer, "proposed", seat.order)
        return offer


MOST_OPEN_OFFERS = 3
"""Open offers one player may have in a game at once. Each offer emails its parties: without
a limit one player could send another an email per request. Three covers what a turn's
dealing asks for (an offer to each other player at a four-player table, or alternatives put
to one player); a fourth waits until one is answered, withdrawn or lapses."""


MOST_OFFERS_AN_HOUR = 10
"""Offers one player may propose in a game within an hour, whatever became of them: the open
offers' limit alone let a player propose, withdraw and propose again, an email each time
(found by review)."""


def _refuse_too_many_offers(game: Game, seat: Seat) -> None:
    """Refuse a new open offer past :data:`MOST_OPEN_OFFERS` (offers past their time count
    no more, whether or not the sweep has closed them yet) or past
    :data:`MOST_OFFERS_AN_HOUR`."""
    now = timezone.now()
    made = TradeOffer.objects.filter(game=game, proposer=seat)
    if made.filter(created_at__gt=now - timedelta(hours=1)).count() >= MOST_OFFERS_AN_HOUR:
        raise TooManyOffers(
            _(
                "you proposed %(most)s trade offers in game #%(game)s within the hour, the "
                "most: wait a while before proposing another"
            )
            % {"most": MOST_OFFERS_AN_HOUR, "game": game.pk}
        )
    still_open = made.filter(status=TradeOffer.Status.OPEN, expires_at__gt=now)
    if still_open.count() >= MOST_OPEN_OFFERS:
        raise TooManyOffers(
            ngettext(
                "you already have %(most)s open trade offer in game #%(game)s, the most at "
                "once: wait for an answer or withdraw it before proposing another",
                "you already have %(most)s open trade offers in game #%(game)s, the most at "
                "once: wait for their answers or withdraw one before proposing another",
                MOST_OPEN_OFFERS,
            )
            % {"most": MOST_OPEN_OFFERS, "game": game.pk}
        )


def lapses_with_turn(trade: Command, expires_at: datetime | None) -> bool:
    """Whether an offer of ``trade`` lapses when the turn it is made in ends: without a time
    of its own, or when the trade's parties follow the turn (an action of the active
    player: the next turn's would be someone else's, who was never asked)."""
    return expires_at is None or getattr(trade, "follows_turn", False) is True


LONGEST_EXPIRY = timedelta(days=7)
"""The latest a proposer may set an offer's expiry: an offer is a deal of the moment, and a
week-old one would bind its parties to a game that has moved on."""


def checked_expiry(expires_at: datetime | None, now: datetime) -> datetime | None:
    """A proposer's expiry time, refused unless it is after ``now`` and within
    :data:`LONGEST_EXPIRY` (a time without a zone is read in the current one)."""
    if expires_at is None:
        return None
    if timezone.is_naive(expires_at):
        expires_at = timezone.make_aware(expires_at)
    if expires_at <= now:
        raise InvalidRequest(_("an offer expires in the future: choose a later time"))
    if expires_at > now + LONGEST_EXPIRY:
        raise InvalidRequest(
            _("an offer expires within %(days)s days: choose an earlier time")
            % {"days": LONGEST_EXPIRY.days}
        )
    return expires_at


def end_of_turn(game: Game) -> datetime:
    """When an offer made now lapses by default: the current turn's deadline (a game
    without one: a turn's time from now)."""
    now = timezone.now()
    if game.deadline is not None and game.deadline > now:
        return game.deadline
    return now + timedelta(hours=game.turn_hours)


def _trading_seat(game: Game, user: Any) -> Seat:
    """The user's seat, unless they resigned: a bot plays it on, and a bot neither proposes
    nor answers trades, so the seat's money moves by its own moves only."""
    seat = seat_of(game, user)
    if seat.resigned:
        raise NotAllowed(
            _("you resigned from game #%(game)s: a bot plays your seat, it trades no more")
            % {"game": game.pk}
        )
    return seat


def _refuse_resigned_parties(game: Game, parties: Collection[int], formatted: str) -> None:
    """A trade may not name a resigned seat: nobody would answer for it."""
    resigned = game.seats.select_related("user").filter(order__in=parties, resigned=True)
    seat = resigned.order_by("order").first()
    if seat is not None:
        raise IllegalMove(
            _("%(name)s resigned: a bot plays that seat, it trades no more") % {"name": seat.name},
            command=formatted,
        )


def close_offers_of(*, game: Game, seat: Seat, now: datetime, why: str) -> list[TradeOffer]:
    """Close the open offers of a seat that resigns (``why``: "resigned", "forfeited"), in
    the resignation's transaction: the ones it made are withdrawn, the ones naming it as a
    party are declined (even if it had accepted: its acceptance was a person's, the seat is
    a bot's now). The offer keeps the seat and ``why`` (a code: each page says it in its
    reader's language, ``templatetags/words.offer_note``)."""
    closed = []
    still_open = TradeOffer.objects.select_for_update().filter(
        game=game, status=TradeOffer.Status.OPEN
    )
    for offer in still_open.order_by("pk"):
        if offer.proposer_id == seat.pk:
            status = TradeOffer.Status.WITHDRAWN
        elif seat.order in offer.parties:
            status = TradeOffer.Status.DECLINED
        else:
            continue
        offer.status = status
        offer.message = why
        offer.closed_by = seat
        offer.resolved_at = now
        offer.save(update_fields=["status", "message", "closed_by", "resolved_at"])
        closed.append(offer)
    return closed


def _locked_offer(offer: TradeOffer | int) -> tuple[Game, TradeOffer]:
    """Lock the game first (the order every writer takes), then re-read the offer."""
    pk = offer.pk if isinstance(offer, TradeOffer) else offer
    game_id = (
        offer.game_id
        if isinstance(offer, TradeOffer)
        else TradeOffer.objects.filter(pk=pk).values_list("game_id", flat=True).first()
    )
    if game_id is None:
        raise NotFound(_("there is no trade offer #%(offer)s") % {"offer": pk})
    game = lock_game(game_id)
    locked = TradeOffer.objects.select_for_update().select_related("proposer").get(pk=pk)
    return game, locked


def _require_open_offer(offer: TradeOffer, now: datetime) -> None:
    if offer.status == TradeOffer.Status.OPEN and offer.expires_at <= now:
        expire(offer, now)
    if offer.status != TradeOffer.Status.OPEN:
        raise GameNotActive(
            _("trade offer #%(offer)s is already %(status)s: propose a new offer")
            % {"offer": offer.pk, "status": offer.get_status_display()},
            code="offer_closed",
            offer_status=offer.status,
        )


def accept_trade(*, offer: TradeOffer | int, user: Any, source: str = "api") -> TradeOffer:
    """Accept as one of the parties; the last acceptance executes the trade: ``executed``
    with its Move; ``failed`` with the engine's message, and its Move if the engine ran the
    trade and stopped at a step (whatever it did is logged), none if it refused it whole."""
    if source not in SOURCES:
        raise InvalidRequest(_("unknown source '%(source)s'") % {"source": source})
    with transaction.atomic():
        game, locked = _locked_offer(offer)
        seat = _trading_seat(game, user)
        now = timezone.now()
        _require_open_offer(locked, now)
        require_active(game)
        if seat.order not in locked.parties:
            raise NotAllowed(_not_a_party(locked))
        # (an offer left open by a resignation before offers were closed with it)
        _refuse_resigned_parties(game, locked.parties, locked.text)
        lapsed = _lapse_if_parties_changed(game, locked, now)
        if not lapsed:
            if seat.order not in locked.accepted_by:
                locked.accepted_by = [*locked.accepted_by, seat.order]
                locked.save(update_fields=["accepted_by"])
            if set(locked.parties) <= set(locked.accepted_by):
                _execute(game, locked, source)
                tell(locked, locked.status, seat.order)
            else:
                tell(locked, "accepted", seat.order)
    _sync(offer, locked)
    if lapsed:  # (raised once the lapse is committed: the parties were told of it)
        raise GameNotActive(
            _(
                "trade offer #%(offer)s lapsed: the turn changed and it would now involve "
                "other players than those asked; propose a new offer"
            )
            % {"offer": locked.pk},
            code="offer_closed",
            offer_status=locked.status,
        )
    return locked


PARTIES_CHANGED = "parties"
"""The ``message`` of an offer that lapsed because its parties are no longer those asked."""


def _lapse_if_parties_changed(game: Game, offer: TradeOffer, now: datetime) -> bool:
    """Close ``offer`` (expired, :data:`PARTIES_CHANGED`) if the seats it involves, worked
    out on the game as it is now, differ from those it was put to: a step of the active
    player's would be another's, who never saw the offer. Such an offer lapses when its turn
    ends; this holds for any other way the parties could change (an offer made before that
    rule), so a trade never runs with parties who did not accept it."""
    engine = engine_for(game)
    assert game.state is not None
    try:
        trade = engine.command_from_json(offer.command)
        parties = engine.trade_parties(game.state, offer.proposer.order, trade)
    except IllegalCommand:  # (the engine says why when it executes it)
        return False
    if parties is None or set(parties) == set(offer.parties):
        return False
    offer.status = TradeOffer.Status.EXPIRED
    offer.message = PARTIES_CHANGED
    offer.resolved_at = now
    offer.save(update_fields=["status", "message", "resolved_at"])
    tell(offer, "expired")
    return True


def _execute(game: Game, offer: TradeOffer, source: str) -> None:
    """Apply the trade as the system (every party agreed), logged like any move."""
    engine = engine_for(game)
    now = timezone.now()
    assert game.state is not None
    try:
        trade = engine.command_from_json(offer.command)
        state, events = engine.apply(game.state, None, trade)
    except IllegalCommand as exc:
        offer.status = TradeOffer.Status.FAILED
        offer.message = str(exc)
        offer.resolved_at = now
        offer.save(update_fields=["status", "message", "resolved_at"])
        return
    entry = Entry(None, trade, engine.format(trade), list(events), source)
    # Claimed first: should the trade end the turn, the turn's end does not expire it.
    TradeOffer.objects.filter(pk=offer.pk).update(status=TradeOffer.Status.EXECUTED)
    moves = commit_commands(game, engine, state, [entry])
    stopped = stop_reason(events)
    offer.status = TradeOffer.Status.EXECUTED if stopped is None else TradeOffer.Status.FAILED
    offer.message = stopped or ""
    offer.move = moves[0]
    offer.resolved_at = now
    offer.save(update_fields=["status", "message", "move", "resolved_at"])


STOP_EVENTS = frozenset({"trade_stopped", "trade_failed"})


def before_chance(engine: GameEngine, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events up to the first that shows a roll or a turned card: what a trial of a
    trade (on its proposal, in the builder's preview) may tell, since a trade is tried at
    the log's next place, whose draws a command sent there would get too."""
    for index, event in enumerate(events):
        if engine.shows_chance(event):
            return events[:index]
    return events


def stop_reason(events: list[dict[str, Any]]) -> str | None:
    """An engine may run a trade step by step and stop at a step that no longer holds (the
    steps before it stay done, and the Move is logged): its stop event's reason."""
    for event in events:
        if event.get("type") in STOP_EVENTS:
            reason = event.get("reason")  # (the engine's sentence, kept as a Text's JSON)
            return str(from_json(reason)) if reason else _("a step of the trade no longer holds")
    return None


def decline_trade(*, offer: TradeOffer | int, user: Any) -> TradeOffer:
    """A party says no: the offer is closed."""
    return _close(offer, user, TradeOffer.Status.DECLINED)


def withdraw_trade(*, offer: TradeOffer | int, user: Any) -> TradeOffer:
    """The proposer takes the offer back."""
    return _close(offer, user, TradeOffer.Status.WITHDRAWN)


def _close(offer: TradeOffer | int, user: Any, status: str) -> TradeOffer:
    with transaction.atomic():
        game, locked = _locked_offer(offer)
        seat = _trading_seat(game, user)
        now = timezone.now()
        _require_open_offer(locked, now)
        if status == TradeOffer.Status.WITHDRAWN and seat.pk != locked.proposer_id:
            if seat.order in locked.parties:
                refusal = _(
                    "only %(name)s, who proposed trade offer #%(offer)s, withdraws it; decline "
                    "it instead"
                )
            else:
                refusal = _("only %(name)s, who proposed trade offer #%(offer)s, withdraws it")
            raise NotAllowed(refusal % {"name": locked.proposer.name, "offer": locked.pk})
        if status == TradeOffer.Status.DECLINED and seat.order not in locked.parties:
            raise NotAllowed(_not_a_party(locked))
        locked.status = status
        locked.resolved_at = now
        locked.closed_by = seat
        locked.save(update_fields=["status", "resolved_at", "closed_by"])
        tell(locked, status, seat.order)
    _sync(offer, locked)
    return locked


def _not_a_party(offer: TradeOffer) -> str:
    """Names the offer and whose answer it waits on, so the refused player knows who may."""
    seats = Seat.objects.filter(game_id=offer.game_id, order__in=offer.parties)
    labels = [seat_label(s) for s in seats.select_related("user").order_by("order")]
    return _("you are not a party to trade offer #%(offer)s: only %(parties)s answer it") % {
        "offer": offer.pk,
        "parties": ", ".join(labels),
    }


def expire_trades(*, now: datetime | None = None) -> int:
    """Close every open offer past its expiry; a conditional UPDATE claims them, so two
    sweeps racing (or a retried task) never expire one offer twice. Returns the count."""
    now = now or timezone.now()
    with transaction.atomic():
        due = TradeOffer.objects.select_for_update(skip_locked=True).filter(
            status=TradeOffer.Status.OPEN, expires_at__lte=now
        )
        return expire_all(list(due), now)


def _sync(target: TradeOffer | int, source: TradeOffer) -> None:
    if isinstance(target, TradeOffer) and target is not source:
        for f in TradeOffer._meta.concrete_fields:
            setattr(target, f.attname, getattr(source, f.attname))
