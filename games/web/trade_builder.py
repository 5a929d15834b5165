"""The trade builder of the Lords of Vegas board page: a trade put together from what the
parties really hold, without typing the notation and without JavaScript.

Server-rendered steps, each a GET with query parameters until the last: choose the other
parties (``parties``), then what each party gives (``pay_<from>_<to>`` amounts,
``lot_<lot>`` and ``die_<lot>`` naming the receiving seat, ``action`` for the active
player), then a preview (``preview=1``): the trade in words and what it would do if
accepted now, by a dry run of the engine on the current state (its ``apply`` returns a new
state; nothing is saved). Proposing POSTs the same fields; the trade is built again from
what the parties hold then and goes through :func:`games.services.propose_trade`, exactly
as the typed notation would. ``counter=<offer>`` starts the pieces from an open offer the
viewer is a party to; proposing it declines that offer, as a counter-offer by email does.

Everything offered comes from the viewer's view of the game (``selectors.game_view``):
money, parking lots and dice on the board are public in Lords of Vegas. The dry run's
account stops before the first die it rolls, so a preview never tells a roll to come.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors, services
from games.engines.base import IllegalCommand, MalformedCommand
from games.engines.lords_of_vegas import notation
from games.engines.lords_of_vegas.commands import (
    ACTIONS,
    Do,
    GiveDie,
    GiveLot,
    Pay,
    Step,
    Trade,
)
from games.engines.lords_of_vegas.trades import in_words as trade_sentences
from games.models import Game, TradeOffer
from games.services.errors import NotAllowed, NotFound, ServiceError
from games.services.lookups import engine_for
from games.web import present
from games.web.forms import OfferExpiryForm

GAME_TYPE = "lords-of-vegas"


class Refused(Exception):
    """The builder's own refusal (a piece a party does not hold, an unreadable action):
    said next to the form; nothing is proposed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Party:
    """A seat in the trade, with what it holds as the viewer sees it."""

    order: int
    name: str
    colour: str
    colour_name: str
    money: int
    lots: list[str]
    dice: list[tuple[str, int]]
    you: bool = False
    others: list[Party] = field(default_factory=list)


@dataclass
class Table:
    """The game as the builder sees it: the viewer's seat, every seat that may trade, the
    active seat, the names by seat order (for the engine's sentences)."""

    game: Game
    shown: dict[str, Any]
    you: int
    seats: dict[int, Party]
    active: int
    names: list[str]


# -- reading the table ------------------------------------------------------------------------


def _table(game_id: int, user: Any) -> Table:
    """The viewer's view of a running Lords of Vegas game they play (else a refusal)."""
    game = selectors.game_by_id(game_id=game_id)
    shown = selectors.game_view(game=game, user=user)
    view = shown["view"]
    you = shown["your_seat"]
    mine = next((s for s in shown["seats"] if s["order"] == you), None)
    if game.game_type != GAME_TYPE or view is None or shown["status"] != "active":
        raise NotAllowed(_("trades are built on a running game of Lords of Vegas only"))
    if mine is None or mine["resigned"]:
        raise NotAllowed(_("only a player of this game who has not resigned proposes trades"))
    return Table(
        game=game,
        shown=shown,
        you=you,
        seats=_parties(shown, view),
        active=int(view["turn"]),
        names=[s["name"] for s in sorted(shown["seats"], key=lambda s: s["order"])],
    )


def _parties(shown: dict[str, Any], view: dict[str, Any]) -> dict[int, Party]:
    """Every unresigned seat with its money, parking lots and dice (from the view)."""
    money = {p["seat"]: p["money"] for p in view["players"]}
    found: dict[int, Party] = {}
    for seat in present.seats(shown):
        if seat["resigned"]:
            continue
        order = seat["order"]
        lots = sorted(lot for lot, owner in view["markers"].items() if owner == order)
        dice = sorted(
            (lot, int(tile["pip"]))
            for lot, tile in view["tiles"].items()
            if tile["owner"] == order and tile["pip"] is not None
        )
        found[order] = Party(
            order=order,
            name=seat["name"],
            colour=seat["colour"],
            colour_name=seat["colour_name"],
            money=int(money.get(order, 0)),
            lots=lots,
            dice=dice,
            you=order == shown["your_seat"],
        )
    return found


def _chosen(table: Table, query: QueryDict) -> list[Party]:
    """The parties chosen: the viewer and the other seats named in ``parties``."""
    orders = {table.you}
    for raw in query.getlist("parties"):
        try:
            order = int(raw)
        except ValueError:
            raise Refused(_("%(value)s is not a seat of this game") % {"value": raw}) from None
        if order not in table.seats:
            raise Refused(_("seat %(seat)s does not trade in this game") % {"seat": raw})
        orders.add(order)
    chosen = [table.seats[o] for o in sorted(orders)]
    for party in chosen:
        party.others = [p for p in chosen if p.order != party.order]
    return chosen


def _someone_ticked(query: QueryDict, chosen: list[Party]) -> None:
    """Refuse the parties' form sent with nobody ticked (its hidden ``chosen``): step 1
    came back as it was, without a word (found by a play-test)."""
    if "chosen" in query and len(chosen) < 2:
        raise Refused(_("tick at least one other player to trade with"))


# -- from the fields to a trade ---------------------------------------------------------------


def _receiver(raw: str, giver: Party, chosen: dict[int, Party]) -> Party | None:
    if raw in ("", "keep"):
        return None
    receiver = chosen.get(int(raw)) if raw.isdigit() else None
    if receiver is None or receiver.order == giver.order:
        raise Refused(_("%(value)s is not another party of this trade") % {"value": raw})
    return receiver


def _pays(chosen: dict[int, Party], query: QueryDict) -> list[Step]:
    steps: list[Step] = []
    for giver in chosen.values():
        for receiver in giver.others:
            raw = query.get(f"pay_{giver.order}_{receiver.order}", "").strip() or "0"
            if not raw.isdigit():
                raise Refused(_("%(value)s is not an amount in $m") % {"value": raw})
            amount = int(raw)
            if amount > giver.money:
                raise Refused(
                    _("%(player)s has only %(money)s")
                    % {"player": giver.name, "money": present.millions(giver.money)}
                )
            if amount:
                steps.append(Pay(giver.colour, receiver.colour, amount))
    return steps


def _pieces(chosen: dict[int, Party], query: QueryDict) -> list[Step]:
    """Lots, then dice: only what a party holds can be given (a lot named in the query
    that no party holds is refused, not passed on)."""
    lots = {lot: p for p in chosen.values() for lot in p.lots}
    dice = {lot: p for p in chosen.values() for lot, _pip in p.dice}
    steps: list[Step] = []
    for kind, held in (("lot", lots), ("die", dice)):
        for key in sorted(k for k in query if k.startswith(f"{kind}_")):
            lot = key[len(kind) + 1 :].upper()
            raw = query.get(key, "")
            if raw in ("", "keep"):
                continue
            giver = held.get(lot)
            if giver is None:
                raise Refused(
                    _("no party of this trade has a parking lot on %(lot)s") % {"lot": lot}
                    if kind == "lot"
                    else _("no party of this trade has a die on %(lot)s") % {"lot": lot}
                )
            receiver = _receiver(raw, giver, chosen)
            if receiver is not None:
                make = GiveLot if kind == "lot" else GiveDie
                steps.append(make(giver.colour, receiver.colour, lot))
    return steps


def _action(query: QueryDict) -> list[Step]:
    """The active player's action, in the notation (``build A2 sphinx``)."""
    text = query.get("action", "").strip()
    if not text:
        return []
    if "," in text:
        raise Refused(_("one action only, without commas"))
    try:
        action = notation.parse(text)
    except MalformedCommand as error:
        raise Refused(str(error)) from None
    if not isinstance(action, ACTIONS):
        raise Refused(
            _("%(action)s is not an action (build, sprawl, remodel, reorganize, raise, gamble)")
            % {"action": repr(text)}
        )
    return [Do(action)]


def build_trade(table: Table, chosen: list[Party], query: QueryDict) -> Trade:
    """The trade the fields describe: payments, lots, dice, then the action."""
    by_order = {p.order: p for p in chosen}
    steps = _pays(by_order, query) + _pieces(by_order, query) + _action(query)
    if not steps:
        raise Refused(_("choose at least one thing that a party gives"))
    return Trade(tuple(steps))


# -- the trade in words, and what it would do -------------------------------------------------


def in_words(table: Table, trade: Trade) -> list[str]:
    """Each step as a sentence in the reader's language, each party named "Cy (red)" and the
    active player's action in the reader's words: the engine's own sentences
    (``trades.in_words``), which the trade offer's email says too (decision 0040)."""
    names = {p.colour: f"{p.name} ({p.colour_name})" for p in table.seats.values()}
    language = translation.get_language() or "en"
    said = trade_sentences(trade, names, table.names[table.active], language)
    return [str(sentence) for sentence in said]


def offer_in_words(game: Game, shown: dict[str, Any], offer: TradeOffer) -> list[str]:
    """An offer's steps as sentences for the board page (:func:`in_words`), so that the
    parties read what they would accept in their language, not only its notation."""
    view = shown["view"]
    table = Table(
        game=game,
        shown=shown,
        you=shown["your_seat"],
        seats=_parties(shown, view),
        active=int(view["turn"]),
        names=[s["name"] for s in sorted(shown["seats"], key=lambda s: s["order"])],
    )
    trade = engine_for(game).command_from_json(offer.command)
    assert isinstance(trade, Trade)
    return in_words(table, trade)  # (a party no longer seated: named by their colour)


@dataclass
class DryRun:
    """What the trade would do if every party accepted now: the engine's sentences (up to
    the first roll), the money after it, or the engine's refusal."""

    effects: list[str] = field(default_factory=list)
    money: list[dict[str, Any]] = field(default_factory=list)
    rolls_later: bool = False
    refusal: str | None = None


def dry_run(table: Table, trade: Trade) -> DryRun:
    """Apply the trade to the current state with the engine (a new state; never saved)."""
    engine = engine_for(table.game)
    assert table.game.state is not None
    try:
        after, events = engine.apply(table.game.state, None, trade)
    except (IllegalCommand, MalformedCommand) as refusal:
        return DryRun(refusal=str(refusal))
    run = DryRun()
    for event in events:
        if engine.shows_chance(event):  # (a preview stops before a roll: it would tell it)
            run.rolls_later = True
            break
        said = str(engine.describe(event, table.names))
        if event.get("type") == "trade_stopped":
            run.refusal = said
        run.effects.append(said)
    if not run.rolls_later:
        before = table.game.state["money"]
        run.money = [
            {
                "name": table.names[order],
                "before": present.millions(before[order]),
                "after": present.millions(after["money"][order]),
            }
            for order in sorted(engine.trade_parties(table.game.state, table.you, trade) or ())
            if before[order] != after["money"][order]
        ]
    return run


# -- the fields again: prefilled from a query or an offer ----------------------------------


def _fields_of_offer(table: Table, offer: TradeOffer) -> QueryDict:
    """The builder's fields for an offer's pieces (a counter-offer starts from them)."""
    engine = engine_for(table.game)
    trade = engine.command_from_json(offer.command)
    order_of = {p.colour: p.order for p in table.seats.values()}
    query = QueryDict(mutable=True)
    query.setlist("parties", [str(o) for o in offer.parties if o != table.you])
    assert isinstance(trade, Trade)
    for step in trade.steps:
        if isinstance(step, Pay):
            key = f"pay_{order_of.get(step.payer)}_{order_of.get(step.payee)}"
            query[key] = str(int(query.get(key, "0")) + step.amount)
        elif isinstance(step, GiveLot | GiveDie):
            kind = "lot" if isinstance(step, GiveLot) else "die"
            query[f"{kind}_{step.lot}"] = str(order_of.get(step.receiver, ""))
        else:
            query["action"] = notation.format_action(step.action)
    query["counter"] = str(offer.pk)
    return query


def _counter_offer(table: Table, raw: str | None) -> TradeOffer | None:
    """The open offer being countered (the viewer must be one of its parties)."""
    if not raw:
        return None
    if not raw.isdigit():
        raise Refused(_("%(value)s is not a trade offer") % {"value": raw})
    offer = selectors.offer_in_game(game=table.game, offer_id=int(raw))
    if offer.status != TradeOffer.Status.OPEN or table.you not in offer.parties:
        raise Refused(
            _("trade offer #%(offer)s is not open to you: propose a new trade")
            % {"offer": offer.pk}
        )
    return offer


def _rows(chosen: list[Party], query: QueryDict) -> list[dict[str, Any]]:
    """Per party: the money it may give each other party, its lots and dice, each with the
    value the query has for it (what the form draws)."""
    rows = []
    for party in chosen:
        rows.append(
            {
                "party": party,
                "money": present.millions(party.money),
                "pays": [
                    {
                        "to": other,
                        "name": f"pay_{party.order}_{other.order}",
                        "value": query.get(f"pay_{party.order}_{other.order}", ""),
                    }
                    for other in party.others
                ],
                "lots": [{"lot": lot, "value": query.get(f"lot_{lot}", "")} for lot in party.lots],
                "dice": [
                    {"lot": lot, "pip": pip, "value": query.get(f"die_{lot}", "")}
                    for lot, pip in party.dice
                ],
            }
        )
    return rows


def _kept(query: QueryDict) -> list[tuple[str, str]]:
    """The fields to carry to the next step (hidden inputs of the propose form)."""
    names = ("parties", "action", "counter")
    kept: list[tuple[str, str]] = []
    for key in sorted(query):
        if key in names or key.startswith(("pay_", "lot_", "die_")):
            empty = ("", "0") if key.startswith("pay_") else ("",)
            kept.extend((key, value) for value in query.getlist(key) if value not in empty)
    return kept


# -- the views ---------------------------------------------------------------------------------


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    from games.web.views import _render

    return _render(request, "games/trade_builder.html", context, status=status)


def _refused(request: HttpRequest, error: ServiceError) -> HttpResponse:
    from games.web.views import _refused as refused

    return refused(request, error)


def _builder_context(table: Table, query: QueryDict, preview: bool) -> dict[str, Any]:
    """Everything the builder page draws for this query (refusals included)."""
    context: dict[str, Any] = {
        "game": table.shown,
        "game_name": present.game_name(GAME_TYPE),
        "others": [p for o, p in sorted(table.seats.items()) if o != table.you],
        "active_name": table.names[table.active],
        "error": None,
    }
    try:
        counter = _counter_offer(table, query.get("counter"))
        chosen = _chosen(table, query)
        _someone_ticked(query, chosen)
    except Refused as refusal:
        context["error"] = refusal.message
        return context
    context.update(
        counter=counter,
        chosen_orders={p.order for p in chosen},
        step="pieces" if len(chosen) > 1 else "parties",
        rows=_rows(chosen, query) if len(chosen) > 1 else [],
        action=query.get("action", ""),
        active_is_party=table.active in {p.order for p in chosen},
    )
    if not preview or len(chosen) < 2:
        return context
    try:
        trade = build_trade(table, chosen, query)
    except Refused as refusal:
        context["error"] = refusal.message
        return context
    context.update(
        step="preview",
        words=in_words(table, trade),
        notation=notation.format_command(trade),
        run=dry_run(table, trade),
        kept=_kept(query),
    )
    return context


@login_required
@require_http_methods(["GET", "HEAD"])
def build(request: HttpRequest, game_id: int) -> HttpResponse:
    """The builder's steps, all by GET: parties, pieces, preview."""
    try:
        table = _table(game_id, request.user)
        query: QueryDict = request.GET
        if "counter" in query and "parties" not in query:
            offer = _counter_offer(table, query.get("counter"))
            assert offer is not None
            query = _fields_of_offer(table, offer)
    except (NotFound, NotAllowed) as error:
        return _refused(request, error)
    except Refused as refusal:
        return _refused(request, NotAllowed(refusal.message))
    context = _builder_context(table, query, preview="preview" in query)
    return _page(request, context, status=400 if context["error"] else 200)


@login_required
@require_POST
def propose(request: HttpRequest, game_id: int) -> HttpResponse:
    """Build the trade again from the posted fields and propose it (and, for a counter,
    decline the offer it answers)."""
    try:
        table = _table(game_id, request.user)
    except (NotFound, NotAllowed) as error:
        return _refused(request, error)
    query = request.POST
    context = _builder_context(table, query, preview=True)
    if context["error"] or context.get("step") != "preview":
        return _page(request, context, status=400)
    if context["run"].refusal is not None:
        context["error"] = context["run"].refusal
        return _page(request, context, status=409)
    expiry = OfferExpiryForm(query)
    context["expiry_form"] = expiry
    if not expiry.is_valid():
        context["error"] = " ".join(str(e) for e in expiry.errors["expires_at"])
        return _page(request, context, status=400)
    try:
        offer = services.propose_trade(
            game=table.game.pk,
            user=request.user,
            text=context["notation"],
            source="web",
            expires_at=expiry.cleaned_data["expires_at"],
        )
        countered = context.get("counter")
        if countered is not None:
            services.decline_trade(offer=countered, user=request.user)
    except ServiceError as exc:
        context["error"] = exc.message
        return _page(request, context, status=exc.status)
    if countered is not None:
        said = _(
            "You declined trade offer #%(id)s and proposed trade offer #%(counter)s instead: "
            "%(trade)s"
        ) % {"id": countered.pk, "counter": offer.pk, "trade": offer.text}
    else:
        said = _("Trade offer #%(id)s proposed: %(trade)s") % {"id": offer.pk, "trade": offer.text}
    messages.success(request, said)
    return redirect(reverse("web:game", kwargs={"game_id": game_id}) + "#trades")


def builder_url(game_id: int, **query: Any) -> str:
    """The builder's address with its query (for links and tests)."""
    url = reverse("web:trade-builder", kwargs={"game_id": game_id})
    return f"{url}?{urlencode(query, doseq=True)}" if query else url


# -- the typed notation: a line that is no trade ---------------------------------------------


def not_a_trade(game_id: int, text: str) -> str | None:
    """What to answer a typed trade that does not start with a trade verb ("I give Cy 5
    for D2"): the trade syntax, rather than every verb of the game. None when the text
    starts like a trade (the engine then judges it) or the game is not Lords of Vegas."""
    game = Game.objects.filter(pk=game_id).values_list("game_type", flat=True).first()
    if game != GAME_TYPE or notation.starts_like_trade(text):
        return None
    return _("%(input)s is not a trade: a trade reads '%(form)s'") % {
        "input": repr(text.strip()),
        "form": notation.TRADE_FORM,
    }
