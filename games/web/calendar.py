"""The iCal feed of a player's deadlines, at a secret address (calendar apps cannot sign
in: the token in the address is the credential), and making a new address from the
profile page, which voids the old one. See docs/decisions/0018-clocks-and-channels.md."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from icalendar import Calendar, Event

from games.engines.registry import get_engine
from games.models import CalendarFeed, Game, Seat

EVENT_LENGTH = timedelta(minutes=15)
"""A deadline is an instant; calendars draw an event, so it is given a short length."""


def feed_url(user: Any) -> str | None:
    """The absolute address of the user's feed (None: they have not made one)."""
    feed = CalendarFeed.objects.filter(user=user).first()
    if feed is None:
        return None
    return settings.SITE_URL + reverse("web:calendar", kwargs={"token": feed.token})


def new_feed(user: Any) -> CalendarFeed:
    """A new secret address for ``user``; the old one stops working."""
    feed, _made = CalendarFeed.objects.update_or_create(
        user=user, defaults={"token": secrets.token_urlsafe(32)}
    )
    return feed


def calendar_for(user: Any) -> bytes:
    """The deadlines of the running games the player is waited on, one event each (the
    event's UID is the game's, so an app updates it when the deadline moves)."""
    cal = Calendar()
    cal.add("prodid", "-//Lords//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", _("Lords: your deadlines"))
    seats = Seat.objects.filter(
        user=user, to_act=True, game__status=Game.Status.ACTIVE, game__deadline__isnull=False
    ).select_related("game")
    for seat in seats:
        cal.add_component(_event(seat.game))
    return cal.to_ical()


def _event(game: Game) -> Event:
    assert game.deadline is not None
    url = settings.SITE_URL + reverse("web:game", kwargs={"game_id": game.pk})
    name = get_engine(game.game_type).name
    event = Event()
    event.add("uid", f"deadline-{game.pk}@{settings.SITE_URL.split('//')[-1]}")
    event.add("dtstamp", timezone.now())
    event.add("dtstart", game.deadline)
    event.add("dtend", game.deadline + EVENT_LENGTH)
    event.add("summary", _("Deadline in %(game)s #%(id)s") % {"game": name, "id": game.pk})
    event.add("description", _("Your move is due: %(url)s") % {"url": url})
    event.add("url", url)
    return event


@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """The feed; an unknown (or replaced) token is a 404, as any unknown address. It is in
    its player's language: a calendar app sends none (or its own), and nobody is signed in
    (found by QA: a French player's feed was in English)."""
    found = CalendarFeed.objects.select_related("user").filter(token=token).first()
    if found is None or not found.user.is_active:
        raise Http404
    language = found.user.language or settings.LANGUAGE_CODE
    with translation.override(language):
        calendar = calendar_for(found.user)
    response = HttpResponse(calendar, content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, no-store"
    response["Content-Language"] = language  # (else the request's: "en" on a French feed)
    return response


@login_required
@require_POST
def regenerate(request: HttpRequest) -> HttpResponse:
    """Make (or replace) the player's calendar address, then back to the profile."""
    new_feed(request.user)
    messages.success(request, _("Your calendar has a new address; the old one no longer works."))
    return redirect(reverse("accounts:profile") + "#calendar")
