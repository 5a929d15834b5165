"""The web door: the lobby and the board page with its move form. Each view calls one
service function (writes) or one read (``queries``, built on the selectors) and presents
the result; errors are the services' own messages. POST/redirect/GET throughout."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors, services
from games.engines.registry import slugs
from games.models import BOT_NAMES, TradeOffer
from games.services import tools
from games.services.errors import NotAllowed, NotFound, ServiceError
from games.web import board_cache, demo, present, queries, trade_builder
from games.web.forms import CreateGameForm, InviteForm, MoveForm, TradeForm


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


def _signed_in(request: HttpRequest) -> bool:
    return bool(request.user.is_authenticated)


def _game_refused(request: HttpRequest, error: ServiceError, game_id: int) -> HttpResponse:
    """A game page refused. A signed-out visitor is sent to sign in, for a private game and
    a missing one alike: the answer tells nothing of whether the game exists (decision
    0029); signed in, they are told which (as before: 0024). A public game's own refusal
    (a move its log lacks) is said to anyone (a query, on this path only)."""
    if not _signed_in(request) and not queries.is_public_game(game_id):
        return redirect_to_login(request.get_full_path())
    return _refused(request, error)


# -- home: what Lords is (signed out), the player's desk (signed in) -------------------------


@require_http_methods(["GET", "HEAD"])
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        boards = [demo.board("lords-of-vegas"), demo.board("vegas")]
        return _render(request, "home.html", {"boards": boards})
    found = queries.desk(user=request.user)
    rows = {
        name: [present.game_row(g) for g in games]
        for name, games in found.items()
        if name != "invitations"
    }
    return _render(
        request, "desk.html", {**rows, "invitations": _invitations(found["invitations"])}
    )


def _invitations(invitations: list[Any]) -> list[dict[str, Any]]:
    """The invitations waiting on the viewer, as ``games/_invitations_waiting.html`` shows
    them (on the desk and in the lobby: the lobby said "you are in no open game" to a
    player invited to one)."""
    return [
        {
            "invitation": i,
            "game_name": present.game_name(i.game.game_type),
            "edition": present.edition(i.game.game_type, i.game.options),
        }
        for i in invitations
    ]


# -- the lobby -----------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby; with ``?game_type=``, the creation form of that game (the type first). A
    signed-out visitor gets the public games being played and those with a free seat, to
    watch, and the way to sign up to play (decision 0029)."""
    if not _signed_in(request):
        return _visitors_lobby(request)
    game_type = request.GET.get("game_type", "")
    form = CreateGameForm(game_type=game_type) if game_type in slugs() else None
    return _lobby(request, form)


def _lobby(request: HttpRequest, form: CreateGameForm | None, status: int = 200) -> HttpResponse:
    found = queries.lobby(user=request.user)
    sections = {name: [present.game_row(g) for g in games] for name, games in found.items()}
    types = [
        {"slug": slug, "name": present.game_name(slug), "about": present.about(slug)}
        for slug in slugs()
    ]
    invitations = _invitations(queries.invitations_for(user=request.user))
    context = {**sections, "form": form, "game_types": types, "invitations": invitations}
    return _render(request, "games/lobby.html", context, status=status)


def _visitors_lobby(request: HttpRequest) -> HttpResponse:
    found = queries.visitors_lobby()
    context = {
        "watch": [present.game_row(g) for g in found["watch"]],
        "joinable": [present.game_row(g) for g in found["joinable"]],
        "here": reverse("web:lobby"),
    }
    return _render(request, "games/visitors_lobby.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    """Create the game, then send the invitations typed with it (each one service call; a
    refused one is said, the game stays). A GET (the address typed, a bookmark, a reload)
    goes to the lobby's creation form, the game type kept: a blank 405 page said nothing."""
    if request.method != "POST":
        game_type = request.GET.get("game_type", "")
        query = f"?game_type={game_type}" if game_type in slugs() else ""
        return redirect(f"{reverse('web:lobby')}{query}#create")
    game_type = request.POST.get("game_type", "")
    if game_type not in slugs():
        messages.error(request, _("Choose a game first."))
        return redirect("web:lobby")
    form = CreateGameForm(request.POST, game_type=game_type)
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
    for who in form.invitees():
        try:
            services.invite_player(game=game, by=request.user, who=who)
        except ServiceError as exc:
            messages.error(request, exc.message)
            if exc.code == "too_many_invitations":  # (said once, not once a name)
                break
        else:
            messages.success(request, _("Invitation sent to %(who)s.") % {"who": who})
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


@require_http_methods(["GET", "HEAD", "POST"])
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board page. A signed-out visitor reads a public game's page as a signed-in
    spectator does, without a control that needs an account (decision 0029); a private or
    missing game, and a POST, send them to sign in."""
    if request.method == "POST":
        if not _signed_in(request):
            return redirect_to_login(request.get_full_path())
        return _submit(request, game_id)
    return board_cache.serve(
        request, game_id, lambda stand_ins: _board(request, game_id, stand_ins=stand_ins)
    )


def _submit(request: HttpRequest, game_id: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _board(request, game_id, typed=form, status=400)
    data = form.cleaned_data
    if (data["choice"] or data["gamble_lot"]) and not data["confirmed"]:
        # A button is one tap (a phone's scroll can be one), a bet's too: nothing is played
        # until the confirm step says what it is and what it costs, and the player says yes;
        # a move that can no longer be played (a tab left open as the turn passed) is
        # refused at once, not after the yes.
        try:
            services.check_command(
                game=game_id,
                user=request.user,
                text=data["command"],
                expected_version=data["expected_version"],
            )
        except (NotFound, NotAllowed) as exc:
            return _refused(request, exc)
        except ServiceError as exc:
            return _board(request, game_id, typed=form, error=exc.message, status=exc.status)
        # The version the check passed, not the one read as the page is drawn: a move landing
        # between the two would otherwise be played against a position never tapped on.
        return _board(
            request, game_id, confirm=data["command"], confirmed_at=data["expected_version"]
        )
    standing = bool(request.POST.get("standing"))  # (a standing choice's form: decision 0042)
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
        if standing:  # a standing choice's form: said beside it
            return _board(request, game_id, choice_error=exc.message, status=exc.status)
        return _board(request, game_id, typed=form, error=exc.message, status=exc.status)
    if result.replayed:
        messages.info(request, _("That form had already been sent: it was applied once only."))
    else:
        said = (
            present.played(result.moves, result.game.game_type, data["command"])
            if result.game
            else data["command"]
        )
        messages.success(request, _("Played: %(command)s") % {"command": said})
    # No fragment: the page opens at its top, where "Played: ..." is said.
    return redirect(reverse("web:game", kwargs={"game_id": game_id}))


# -- every past position, and what an open page polls ------------------------------------


@require_http_methods(["GET", "HEAD"])
def replay(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    """The position after Move ``seq`` as the viewer could see it then, with first, back,
    forward, last and a move number (each position has its URL). A signed-out visitor
    replays a public game as a spectator does (decision 0029)."""
    try:
        page = queries.replay_page(game_id=game_id, seq=seq, user=request.user)
    except (NotFound, NotAllowed) as exc:
        return _game_refused(request, exc, game_id)
    except ServiceError as exc:
        return _refused(request, exc)
    shown, position = page["game"], page["position"]
    at = {**shown, "view": position["view"], "text": position["text"]}
    last = position["last"]
    move = position["move"]
    context = {
        "game": shown,
        "title": present.title(shown),
        "seq": seq,
        "last": last,
        "steps": {
            "first": 0 if seq > 0 else None,
            "back": seq - 1 if seq > 0 else None,
            "forward": seq + 1 if seq < last else None,
            "last": last if seq < last else None,
        },
        "move": None if move is None else present.log([move], shown)[0],
        "seats": present.seats(at),
        "board": _drawn_board(at),
        "text": position["text"],
    }
    return _render(request, "games/replay.html", context)


@require_http_methods(["GET", "HEAD"])
def replay_goto(request: HttpRequest, game_id: int) -> HttpResponse:
    """The move-number field of the replay (a GET form, no JavaScript): to that move's URL;
    a number out of the log is said on the page it came from."""
    raw = request.GET.get("seq", "")
    if not raw.isdigit():
        messages.error(request, _("Type a move number."))
        return redirect("web:replay", game_id=game_id, seq=0)
    return redirect("web:replay", game_id=game_id, seq=int(raw))


@require_http_methods(["GET", "HEAD"])
def live(request: HttpRequest, game_id: int) -> HttpResponse:
    """A tag that changes when the board page would (``ETag``; ``If-None-Match`` gets a
    304), and whether it is the viewer's turn: polled by ``games/live.js``, on a signed-out
    visitor's page too (a public game's; a private or missing game is one refusal to them,
    JSON, not the sign-in page a script cannot read: decision 0029)."""
    try:
        found = queries.live_version(game_id=game_id, user=request.user)
    except ServiceError as exc:
        if not _signed_in(request) and isinstance(exc, (NotFound, NotAllowed)):
            return JsonResponse({"error": _("sign in first")}, status=403)
        return JsonResponse({"error": exc.message}, status=exc.status)
    etag = f'"{found["tag"]}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(found)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


# -- trade offers (each POST: one service, then the page again) ----------------------------


def _offer(game_id: int, offer_id: int, user: Any) -> TradeOffer:
    """The offer the URL names, under the URL's game (else the service would act on an
    offer of another game and the player land on the wrong page), if ``user`` may see that
    game: else whether the offer exists would tell what a private game holds."""
    game = selectors.game_by_id(game_id=game_id)
    selectors.check_visible(game=game, user=user)
    return selectors.offer_in_game(game=game, offer_id=offer_id)


def _trades_url(game_id: int) -> str:
    return reverse("web:game", kwargs={"game_id": game_id}) + "#trades"


@login_required
@require_POST
def propose_trade(request: HttpRequest, game_id: int) -> HttpResponse:
    form = TradeForm(request.POST)
    if not form.is_valid():
        errors = [str(e) for errs in form.errors.values() for e in errs]
        return _board(request, game_id, trade=form, trade_error=" ".join(errors), status=400)
    not_a_trade = trade_builder.not_a_trade(game_id, form.cleaned_data["trade"])
    if not_a_trade is not None:
        return _board(request, game_id, trade=form, trade_error=not_a_trade, status=422)
    try:
        offer = services.propose_trade(
            game=game_id,
            user=request.user,
            text=form.cleaned_data["trade"],
            source="web",
            expires_at=form.cleaned_data["expires_at"],
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
            offer=_offer(game_id, offer_id, request.user), user=request.user, source="web"
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
        offer = services.decline_trade(
            offer=_offer(game_id, offer_id, request.user), user=request.user
        )
    except ServiceError as exc:
        return _board(request, game_id, trade_error=exc.message, status=exc.status)
    messages.success(request, _("You declined trade offer #%(id)s.") % {"id": offer.pk})
    return redirect(_trades_url(game_id))


@login_required
@require_POST
def withdraw_trade(request: HttpRequest, game_id: int, offer_id: int) -> HttpResponse:
    try:
        offer = services.withdraw_trade(
            offer=_offer(game_id, offer_id, request.user), user=request.user
        )
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
    confirm: str | None = None,
    confirmed_at: int | None = None,
    choice_error: str | None = None,
    status: int = 200,
    stand_ins: bool = False,
) -> HttpResponse:
    """The page; after a refused submission, with the service's message next to the form,
    the text as typed, and a fresh key and the current version (the page now shows it).
    A refused trade likewise: its message next to the trade offers, the trade as typed.
    ``stand_ins``: the CSRF token and the move form's key are the stand-ins of a page to
    be stored (``board_cache``), filled in on each answer."""
    try:
        page = queries.board_page(game_id=game_id, user=request.user)
    except (NotFound, NotAllowed) as exc:
        return _game_refused(request, exc, game_id)
    shown = page["game"]
    visitor = not _signed_in(request)
    text = typed.data.get("text", "") if typed is not None else ""
    form = MoveForm.fresh(version=shown["version"], text=str(text))
    if confirm is not None and typed is None:
        form = MoveForm.fresh(version=shown["version"] if confirmed_at is None else confirmed_at)
    if stand_ins:
        form = MoveForm.fresh(version=shown["version"], key=board_cache.stand_ins()[1])
    form_errors = [] if typed is None else [e for errs in typed.errors.values() for e in errs]
    context = {
        "game": shown,
        "title": present.title(shown),
        "game_name": present.game_name(shown["game_type"]),
        "edition": present.edition(shown["game_type"], shown["options"]),
        "seats": present.seats(shown),
        "placings": present.placings(shown),
        # A call: the template reads the log only when its fragment is not cached.
        "log": lambda: present.log(page["moves"](), shown, page["seen_up_to"]),
        **_log_cache(shown, present.viewer_zone(request.user), page["seen_up_to"]),
        "older_moves": page["older_moves"],
        "offers": page["offers"],
        "may_propose": page["may_propose"],
        "trade_form": trade if trade is not None else TradeForm(),
        "trade_error": trade_error,
        "may_start": page["may_start"],
        "start_refusal": page["start_refusal"],
        "may_join": page["may_join"],
        # A signed-out visitor: no control, a call to sign in (or up) to play instead.
        "visitor": visitor,
        "seat_free": page["seat_free"],
        "may_leave": page["may_leave"],
        "may_resign": page["may_resign"],
        "may_invite": page["may_invite"],
        "bots": page["bots"],
        "may_remove_bots": page["may_remove_bots"],
        "invitations": page["invitations"],
        "invite_form": InviteForm(),
        "groups": present.command_groups(shown["legal_commands"], shown["view"]),
        "choices": present.standing_choices(shown),
        "choice_error": choice_error,
        "confirm": None
        if confirm is None
        else present.confirmation(confirm, shown["legal_commands"], shown["view"]),
        "form": form,
        "move_error": error,
        "form_errors": form_errors,
        "may_move": _may_move(shown),
        "board": _drawn_board(shown, page["changed"]),
        "fair": _fair_dice(shown),
        "live_tag": page["live_tag"],
        "next_game": None if shown["your_turn"] or visitor else _next_game(request.user, game_id),
    }
    if stand_ins:  # above the context processor's token
        context["csrf_token"] = board_cache.stand_ins()[0]
    return _render(request, "games/game.html", context, status=status)


def _log_cache(shown: dict[str, Any], zone: Any, seen_up_to: int) -> dict[str, Any]:
    """The key and lifetime of the recent moves' fragment (``_log.html``); with the board
    page's caches off, a key of its own and no lifetime: never read, never stored."""
    if not board_cache.enabled():
        return {"log_key": uuid.uuid4().hex, "log_ttl": 0}
    return {"log_key": _log_key(shown, zone, seen_up_to), "log_ttl": board_cache.TTL}


def _log_key(shown: dict[str, Any], zone: Any, seen_up_to: int) -> str:
    """What the recent moves' fragment shows besides the moves themselves, which a game's
    version and status fix (the log is append-only; the start writes move 0 without
    changing the version): the seats' names, the reader's language and time zone, the
    moves folded (those the reader has seen) and the code that draws it; the game's
    creation time keeps a game of another database with the same id apart."""
    names = "|".join(s["name"] for s in shown["seats"])
    return ":".join(
        [
            str(shown["id"]),
            str(shown["created_at"].timestamp()),
            str(shown["version"]),
            str(shown["status"]),  # (an open game and the same game started, at version 0)
            hashlib.sha256(names.encode()).hexdigest()[:16],
            translation.get_language() or "",
            str(zone),
            str(seen_up_to),
            board_cache.code_version(),
        ]
    )


def _may_move(shown: dict[str, Any]) -> bool:
    """Whether to offer the form at all: a seated, unresigned player of a running game (the
    service decides what it accepts out of turn)."""
    seat = shown["your_seat"]
    if seat is None or shown["status"] != "active":
        return False
    return not any(s["resigned"] for s in shown["seats"] if s["order"] == seat)


def _fair_dice(shown: dict[str, Any]) -> dict[str, Any]:
    return {"hash": shown["seed_hash"], "seed": shown["seed"], "game": shown["id"]}


def _drawn_board(shown: dict[str, Any], changed: Sequence[str] = ()) -> dict[str, Any] | None:
    view = shown["view"]
    if view is None:
        return None
    if view.get("game") == "lords-of-vegas":
        seat = shown["your_seat"]
        return {"kind": "lords-of-vegas", **present.lords_board(view, changed, seat)}
    if view.get("game") == "vegas":
        return {"kind": "vegas", **present.vegas_board(view, present.seats(shown))}
    return None


# -- the table: seats, invitations, resigning (each POST: one service, then the page) ------


def _table_url(game_id: int) -> str:
    return reverse("web:game", kwargs={"game_id": game_id}) + "#table"


def _done(request: HttpRequest, game_id: int, call: Any, said: str) -> HttpResponse:
    """Run one service call; its refusal or ``said`` as a message, then the game page."""
    try:
        call()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(_table_url(game_id))
    messages.success(request, said)
    return redirect(_table_url(game_id))


@login_required
@require_POST
def add_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    bot = request.POST.get("bot", "")
    return _done(
        request,
        game_id,
        lambda: services.add_bot(game=game_id, by=request.user, bot=bot),
        _("A %(bot)s bot took a seat.") % {"bot": BOT_NAMES.get(bot, bot)},
    )


@login_required
@require_POST
def remove_bot(request: HttpRequest, game_id: int, order: int) -> HttpResponse:
    return _done(
        request,
        game_id,
        lambda: services.remove_bot(game=game_id, by=request.user, seat=order),
        _("The bot left its seat."),
    )


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.leave_game(game=game_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(_table_url(game_id))
    messages.success(request, _("You left game #%(id)s.") % {"id": game_id})
    return redirect("home")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: what resigning means, and the button; POST: resign (once: a second time is
    refused with what happened, and changes nothing)."""
    try:
        page = queries.board_page(game_id=game_id, user=request.user)
    except (NotFound, NotAllowed) as exc:
        return _refused(request, exc)
    shown = page["game"]
    mine = shown.get("your_seat")
    others = [s for s in shown["seats"] if not s["resigned"] and s["order"] != mine]
    ends = services.ends_the_game(len(others))  # (the one left wins)
    if request.method == "POST" and page["may_resign"]:
        done = (
            _("You resigned from game #%(id)s: the game is over.")
            if ends
            else _("You resigned from game #%(id)s: a bot plays your seat on.")
        )
        return _done(
            request,
            game_id,
            lambda: services.resign(game=game_id, user=request.user, source="web"),
            done % {"id": game_id},
        )
    context = {
        "game": shown,
        "title": present.title(shown),
        "may_resign": page["may_resign"],
        "ends": ends,
        "winner": others[0]["name"] if ends and others else "",
    }
    return _render(request, "games/resign.html", context, status=200 if page["may_resign"] else 409)


@login_required
@require_POST
def vote_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    """The player asks for a pause (the clock partial's button); the game pauses once
    every player has asked (docs/decisions/0018-clocks-and-channels.md)."""
    try:
        paused = tools.vote_pause(game=game_id, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(_table_url(game_id))
    if paused is not None:
        messages.success(request, _("Every player asked: the game is paused."))
    else:
        messages.success(request, _("You asked for a pause: it starts when every player has."))
    return redirect(_table_url(game_id))


@login_required
@require_POST
def withdraw_pause_vote(request: HttpRequest, game_id: int) -> HttpResponse:
    """The player takes back their pause vote (before everybody agreed)."""
    return _done(
        request,
        game_id,
        lambda: tools.withdraw_pause_vote(game=game_id, by=request.user),
        _("You no longer ask for a pause."),
    )


@login_required
@require_POST
def end_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    """Any player ends a pause the players agreed to: the clock runs again."""
    return _done(
        request,
        game_id,
        lambda: tools.end_players_pause(game=game_id, by=request.user),
        _("The pause is over: the clock runs again."),
    )


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return redirect(_table_url(game_id))
    who = form.cleaned_data["who"]
    return _done(
        request,
        game_id,
        lambda: services.invite_player(game=game_id, by=request.user, who=who),
        # (the message starts a sentence, capitalised: not with an address, "Eve@example.org")
        _("Invitation sent to %(who)s: an email with the link is on its way.") % {"who": who},
    )


@login_required
@require_POST
def withdraw_invitation(request: HttpRequest, game_id: int, invitation_id: int) -> HttpResponse:
    return _done(
        request,
        game_id,
        lambda: services.withdraw_invitation(
            game=game_id, invitation=invitation_id, by=request.user
        ),
        _("The invitation is withdrawn: its link seats nobody now."),
    )


INVITATION_SESSION_KEY = "lords_invitation"
"""The invitation a signed-out visitor opened: their sign-up claims it (games.receivers)."""


@require_http_methods(["GET", "HEAD"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: the game and who invited; accept or decline when signed in, sign
    up or in first otherwise (with any address, which the link does not verify: 0024).
    Every refusal is the services' own, said before any button."""
    try:
        page = queries.invitation_page(token=token, user=request.user)
    except NotFound as exc:
        return _refused(request, exc)
    if not request.user.is_authenticated and not page["closed"]:
        request.session[INVITATION_SESSION_KEY] = token
    context = {
        **page,
        "game_name": present.game_name(page["game"].game_type),
        "edition": present.edition(page["game"].game_type, page["game"].options),
        "here": request.get_full_path(),
    }
    status = 200 if page["problem"] is None else page["problem"].status
    return _render(request, "games/invitation.html", context, status=status)


@login_required
@require_POST
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    try:
        seat = services.accept_invitation(token=token, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("web:invitation", token=token)
    messages.success(request, _("You have joined game #%(id)s.") % {"id": seat.game_id})
    return redirect(_table_url(seat.game_id))


@login_required
@require_POST
def decline_invitation(request: HttpRequest, token: str) -> HttpResponse:
    try:
        found = services.decline_invitation(token=token, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("web:invitation", token=token)
    messages.success(
        request, _("You declined the invitation to game #%(id)s.") % {"id": found.game_id}
    )
    return redirect("home")


def _next_game(user: Any, game_id: int) -> dict[str, Any] | None:
    """The game that has waited longest on the viewer, when this one does not wait on them."""
    found = queries.next_waiting(user=user, besides=game_id)
    if found is None:
        return None
    return {"id": found.pk, "title": f"{present.game_name(found.game_type)} #{found.pk}"}
