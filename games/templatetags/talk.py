"""``{% load talk %}``: the table talk and the private notes of the board page, read here
from the page's game and viewer (``_chat.html``, ``_notes.html``), so the board's view needs
no change for them: one include each in ``game.html``."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Seat
from games.web import talk

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context: template.Context, game: dict[str, Any]) -> dict[str, Any] | None:
    """The chat of ``game`` (the page's game dict) for the viewer, or None when they may
    not read it (not seated): ``?chat_before=<id>`` pages back."""
    seat = _viewer_seat(context, game)
    return None if seat is None else talk.chat_context(seat, context["request"], game["game_type"])


@register.simple_tag(takes_context=True)
def notes_panel(context: template.Context, game: dict[str, Any]) -> dict[str, Any] | None:
    """The viewer's notes in ``game``, or None when they have no seat."""
    seat = _viewer_seat(context, game)
    return None if seat is None else talk.notes_context(seat)


def _viewer_seat(context: template.Context, game: dict[str, Any]) -> Seat | None:
    """The viewer's seat in the page's game (None: signed out, or not seated), read once
    per request for both panels."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return None
    read: dict[int, Seat | None] = request.__dict__.setdefault("_viewer_seats", {})
    if game["id"] not in read:
        read[game["id"]] = talk.viewer_seat(game["id"], request.user)
    return read[game["id"]]
