"""The web door: the lobby and the board page with its move form. Each view calls one
service function (writes) or one read (``queries``, built on the selectors) and presents
the result; errors are the services' own messages. POST/redirect/GET throughout."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors, services
from games.models import TradeOffer
from games.services.errors import NotAllowed, NotFound, ServiceError
from games.web import present, queries
from games.web.forms import CreateGameForm, MoveForm, TradeForm


def _render(
    request: HttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """Render with the viewer's time zone active, so every time shown is theirs."""
    zone = present.viewer_zone(request.user)
    with timezone.override(zone):
        context = {**context, "zone": zone}
        return render(request, template, context, status=status)


def _refused(request: HttpRequest, error: ServiceError) -> HttpResponse:
    status = 404 if isinstance(error, NotFound) else 403
    return _render(request, "games/refused.html", {"error": error}, status=status)


# -- the lobby -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD"])
def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby(request, CreateGameForm())


def _lobby(request: HttpRequest, form: CreateGameForm, status: int = 200) -> HttpResponse:
    found = queries.lobby(user=request.user)
    sections = {name: [present.game_row(g) for g in games] for name, games in found.items()}
    return _render(request, "games/lobby.html", {**sections, "form": form}, status=status)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    try:
        game = services.create_game(creator=request.user, **form.service_arguments())
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _lobby(request, form, status=exc.status)
    messages.success(
        request, _("Game #%(id)s is open: invite players or add bots.") % {"id": game.pk}
    )
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.join_game(game=game_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("web:lobby")
    messages.success(request, _("You have joined game #%(id)s.") % {"id": game_id})
    return redirect("web:game", game_id=game_id)


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.start_game(game=game_id, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("web:game", game_id=game_id)
    messages.success(request, _("Game #%(id)s has started.") % {"id": game_id})
    return redirect("web:game", game_id=game_id)


# -- the board page ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    if request.method == "POST":
        return _submit(request, game_id)
    return _board(request, game_id)


def _submit(request: HttpRequest, game_id: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _board(request, game_id, typed=form, status=400)
    data = form.cleaned_data
    try:
        result = services.submit_command(
            game=game_id,
            user=request.user,
            text=data["command"],
            source="web",
            expected_version=data["expected_version"],
            idempotency_key=data["idempotency_key"],
        )
    except (NotFound, NotAllowed) as exc:
        return _refused(request, exc)
    except ServiceError as exc:
        return _board(request, game_id, typed=form, error=exc.message, status=exc.status)
    if result.replayed:
        messages.info(request, _("That form had already been sent: it was applied once only."))
    else:
        messages.success(request, _("Played: %(command)s") % {"command": data["command"]})
    return redirect(reverse("web:game", kwargs={"game_id": game_id}) + "#board")


# -- trade offers (each POST: one service, then the page again) ----------------------------


def _offer(game_id: int, offer_id: int) -> TradeOffer:
    """The offer the URL names, under the URL's game (else the service would act on an
    offer of another game and the player land on the wrong page)."""
    return selectors.offer_in_game(game=selectors.game_by_id(game_id=game_id), offer_id=offer_id)


def _trades_url(game_id: int) -> str:
    return reverse("web:game", kwargs={"game_id": game_id}) + "#trades"


@login_required
@require_POST
def propose_trade(request: HttpRequest, game_id: int) -> HttpResponse:
    form = TradeForm(request.POST)
    if not form.is_valid():
        errors = [str(e) for errs in form.errors.values() for e in errs]
        return _board(request, game_id, trade=form, trade_error=" ".join(errors), status=400)
    try:
        offer = services.propose_trade(
            game=game_id, user=request.user, text=form.cleaned_data["trade"], source="web"
        )
    except ServiceError as exc:
        return _board(request, game_id, trade=form, trade_error=exc.message, status=exc.status)
    messages.success(
        request,
        _("Trade offer #%(id)s proposed: %(trade)s") % {"id": offer.pk, "trade": offer.text},
    )
    return redirect(_trades_url(game_id))


@login_required
@require_POST
def accept_trade(request: HttpRequest, game_id: int, offer_id: int) -> HttpResponse:
    try:
        offer = services.accept_trade(
            offer=_offer(game_id, offer_id), user=request.user, source="web"
        )
    except ServiceError as exc:
        return _board(request, game_id, trade_error=exc.message, status=exc.status)
    if offer.status == offer.Status.OPEN:
        done = _("You accepted trade offer #%(id)s; it waits on the other parties.")
    elif offer.status == offer.Status.EXECUTED:
        done = _("You accepted trade offer #%(id)s: the trade is done.")
    else:
        done = _("You accepted trade offer #%(id)s, but the trade failed: %(why)s")
    messages.success(request, done % {"id": offer.pk, "why": offer.message})
    return redirect(_trades_url(game_id))


@login_required
@require_POST
def decline_trade(request: HttpRequest, game_id: int, offer_id: int) -> HttpResponse:
    try:
        offer = services.decline_trade(offer=_offer(game_id, offer_id), user=request.user)
    except ServiceError as exc:
        return _board(request, game_id, trade_error=exc.message, status=exc.status)
    messages.success(request, _("You declined trade offer #%(id)s.") % {"id": offer.pk})
    return redirect(_trades_url(game_id))


@login_required
@require_POST
def withdraw_trade(request: HttpRequest, game_id: int, offer_id: int) -> HttpResponse:
    try:
        offer = services.withdraw_trade(offer=_offer(game_id, offer_id), user=request.user)
    except ServiceError as exc:
        return _board(request, game_id, trade_error=exc.message, status=exc.status)
    messages.success(request, _("You withdrew trade offer #%(id)s.") % {"id": offer.pk})
    return redirect(_trades_url(game_id))


def _board(
    request: HttpRequest,
    game_id: int,
    *,
    typed: MoveForm | None = None,
    error: str | None = None,
    trade: TradeForm | None = None,
    trade_error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page; after a refused submission, with the service's message next to the form,
    the text as typed, and a fresh key and the current version (the page now shows it).
    A refused trade likewise: its message next to the trade offers, the trade as typed."""
    try:
        page = queries.board_page(game_id=game_id, user=request.user)
    except (NotFound, NotAllowed) as exc:
        return _refused(request, exc)
    shown = page["game"]
    text = typed.data.get("text", "") if typed is not None else ""
    form = MoveForm.fresh(version=shown["version"], text=str(text))
    form_errors = [] if typed is None else [e for errs in typed.errors.values() for e in errs]
    context = {
        "game": shown,
        "title": present.title(shown),
        "game_name": present.game_name(shown["game_type"]),
        "edition": present.edition(shown["game_type"], shown["options"]),
        "seats": present.seats(shown),
        "placings": present.placings(shown),
        "log": present.log(page["moves"], shown),
        "older_moves": page["older_moves"],
        "offers": page["offers"],
        "may_propose": page["may_propose"],
        "trade_form": trade if trade is not None else TradeForm(),
        "trade_error": trade_error,
        "may_start": page["may_start"],
        "may_join": page["may_join"],
        "groups": present.command_groups(shown["legal_commands"]),
        "form": form,
        "move_error": error,
        "form_errors": form_errors,
        "may_move": _may_move(shown),
        "board": _drawn_board(shown),
    }
    return _render(request, "games/game.html", context, status=status)


def _may_move(shown: dict[str, Any]) -> bool:
    """Whether to offer the form at all: a seated, unresigned player of a running game (the
    service decides what it accepts out of turn)."""
    seat = shown["your_seat"]
    if seat is None or shown["status"] != "active":
        return False
    return not any(s["resigned"] for s in shown["seats"] if s["order"] == seat)


def _drawn_board(shown: dict[str, Any]) -> dict[str, Any] | None:
    view = shown["view"]
    if view is None:
        return None
    if view.get("game") == "lords-of-vegas":
        return {"kind": "lords-of-vegas", **present.lords_board(view)}
    if view.get("game") == "vegas":
        return {"kind": "vegas", **present.vegas_board(view, present.seats(shown))}
    return None
