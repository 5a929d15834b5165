"""The web door of table talk and private notes (issue 11): the board page's chat and notes
panels (read through ``{% load talk %}``), and their forms, each POST one service call and
then the page again (POST/redirect/GET; a refusal is said at the top of the page)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import ChatMessage, Game, Seat
from games.services import talk
from games.services.errors import ServiceError
from games.services.naming import seat_label


def _seat(game: Game, user: Any) -> Seat | None:
    return game.seats.select_related("user").filter(user=user).first()


def present_message(message: ChatMessage, seat: Seat) -> dict[str, Any]:
    """A message as its reader sees it: who said it, to whom (private), and whether it is
    theirs."""
    return {
        "id": message.pk,
        "who": seat_label(message.author),
        "to": seat_label(message.to) if message.to is not None else "",
        "private": message.to_id is not None,
        "mine": message.author_id == seat.pk,
        "text": message.text,
        "at": message.created_at,
    }


def chat_context(game: Game, request: HttpRequest) -> dict[str, Any] | None:
    """The chat panel: the newest page of what the viewer may read (an older page with
    ``?chat_before=``), whom they may whisper to, and whom they muted."""
    seat = _seat(game, request.user)
    if seat is None:
        return None
    raw = request.GET.get("chat_before", "")
    before = int(raw) if raw.isdigit() else None
    found = talk.messages_for(game=game, user=request.user, before=before, limit=talk.PAGE + 1)
    shown = found[: talk.PAGE]
    muted = talk.muted_orders(seat)
    others = [
        {"order": s.order, "label": seat_label(s), "muted": s.order in muted}
        for s in game.seats.select_related("user").order_by("order")
        if s.pk != seat.pk and s.user is not None
    ]
    return {
        "messages": [present_message(m, seat) for m in shown],
        "older": shown[-1].id if len(found) > talk.PAGE else None,
        "paged": before is not None,
        "others": others,
        "max_length": talk.MAX_LENGTH,
        "rate": talk.RATE,
    }


def notes_context(game: Game, request: HttpRequest) -> dict[str, Any] | None:
    """The viewer's notes (None: they have no seat, so no notes)."""
    if _seat(game, request.user) is None:
        return None
    return {
        "text": talk.note_of(game=game, user=request.user),
        "max_length": talk.NOTE_LENGTH,
    }


def _back(game_id: int, anchor: str) -> HttpResponse:
    return redirect(reverse("web:game", kwargs={"game_id": game_id}) + anchor)


@login_required
@require_POST
def say(request: HttpRequest, game_id: int) -> HttpResponse:
    """Post a message to the table, or to one player (``to``: a seat order)."""
    raw_to = request.POST.get("to", "")
    to = int(raw_to) if raw_to.isdigit() else None
    try:
        talk.say(
            game=game_id,
            user=request.user,
            text=request.POST.get("text", ""),
            to=to,
            source=ChatMessage.Source.WEB,
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _back(game_id, "#chat")
    messages.success(request, _("Said."))
    return _back(game_id, "#chat")


@login_required
@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    """Mute or unmute one player's messages for the viewer (``order``, ``muted``: 1 or 0)."""
    raw = request.POST.get("order", "")
    muted = request.POST.get("muted") == "1"
    try:
        talk.set_mute(
            game=game_id, user=request.user, order=int(raw) if raw.isdigit() else -1, muted=muted
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _back(game_id, "#chat")
    messages.success(request, _("Muted.") if muted else _("Unmuted."))
    return _back(game_id, "#chat")


@login_required
@require_POST
def notes(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save the viewer's private notes in the game."""
    try:
        talk.save_note(game=game_id, user=request.user, text=request.POST.get("text", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _back(game_id, "#notes")
    messages.success(request, _("Your notes are saved."))
    return _back(game_id, "#notes")
