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

from games.engines.base import GameEngine
from games.models import ChatMessage, Seat
from games.services import talk
from games.services.errors import ServiceError
from games.services.naming import engine_of_type, seat_label


def viewer_seat(game_id: int, user: Any) -> Seat | None:
    """The viewer's seat in the game, with its player (None: not seated): all a panel
    reads of the table besides what it shows (the page has read the game)."""
    return Seat.objects.select_related("user").filter(game_id=game_id, user=user).first()


def present_message(
    message: ChatMessage, seat: Seat, engine: GameEngine | None = None
) -> dict[str, Any]:
    """A message as its reader sees it: who said it, to whom (private), and whether it is
    theirs. ``engine``: the game's (it names the colours), if the caller has it."""
    return {
        "id": message.pk,
        "who": seat_label(message.written_by, engine),
        "to": seat_label(message.written_to, engine) if message.to is not None else "",
        "private": message.to_id is not None,
        "mine": message.author_id == seat.pk and message.author_user_id == seat.user_id,
        "text": message.text,
        "at": message.created_at,
    }


def chat_context(seat: Seat, request: HttpRequest, game_type: str) -> dict[str, Any]:
    """The chat panel of the viewer at ``seat`` (:func:`viewer_seat`) in a game of
    ``game_type`` (its engine names the colours): the newest page of what they may read
    (an older page with ``?chat_before=``), whom they may whisper to, and whom they
    muted."""
    raw = request.GET.get("chat_before", "")
    before = int(raw) if raw.isdigit() else None
    found = talk.messages_seen(seat, before=before, limit=talk.PAGE + 1)
    shown = found[: talk.PAGE]
    muted = talk.muted_orders(seat)
    engine = engine_of_type(game_type)
    others = [
        {"order": s.order, "label": seat_label(s, engine), "muted": s.order in muted}
        for s in Seat.objects.filter(game_id=seat.game_id).select_related("user").order_by("order")
        if s.pk != seat.pk and s.user is not None
    ]
    return {
        "messages": [present_message(m, seat, engine) for m in shown],
        "older": shown[-1].id if len(found) > talk.PAGE else None,
        "paged": before is not None,
        "others": others,
        "max_length": talk.MAX_LENGTH,
        "rate": talk.RATE,
    }


def notes_context(seat: Seat) -> dict[str, Any]:
    """The notes of the viewer at ``seat`` (:func:`viewer_seat`)."""
    return {"text": talk.note_in(seat), "max_length": talk.NOTE_LENGTH}


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
