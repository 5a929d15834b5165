"""The daily digest: one email a day, at the hour the player chose in their zone, listing
every game waiting for them (each with a short board, what happened since their last move
and their legal commands, each command prefixed with the game's number so that one reply
can play in several games: ``notifications.digest_reply``).

The hourly run reads only the players due: each digest player's preference row holds the
next digest moment in UTC (``EmailPreference.digest_at``, a partial index), set in their
zone when they choose it and moved on by each run, so daylight-saving changes keep the
wall-clock hour. The email is a game-less ``Notification`` (kind ``digest``, key
``d<local date>``), created with the email already stored on it, then sent; ``send_due``
re-sends it when the send fails or the worker dies. See
``docs/decisions/0017-email-choices-and-digest.md``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, make_msgid
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.models import zone_named
from games.models import Game, Seat
from notifications import leases, services
from notifications.addresses import digest_address
from notifications.choices import next_digest
from notifications.emails import game_url, local_time, site_domain, unsubscribe_url
from notifications.models import EmailPreference, GameMute, Notification

log = logging.getLogger(__name__)

Kind = Notification.Kind
BOARD_LINES = 24
"""A digest shows the top of each board (the game page has all of it)."""
COMMANDS_SHOWN = 8
EVENTS_SHOWN = 5


def run_digests(*, now: datetime | None = None, batch: int = 1000) -> int:
    """Send the digest of every player whose digest moment has come (the hourly task);
    how many were sent. Each player's next moment is set once their email is stored (a
    conditional UPDATE: of racing runs, one moves it on)."""
    now = now or timezone.now()
    due = list(
        EmailPreference.objects.filter(digest_at__lte=now)
        .select_related("user")
        .order_by("digest_at")[:batch]
    )
    sent = 0
    for pref in due:
        sent += _one(pref, now)
    return sent


def _one(pref: EmailPreference, now: datetime) -> int:
    user = pref.user
    moment = pref.digest_at
    assert moment is not None
    meant = next_digest(pref.digest_hour, user.time_zone, moment - timedelta(seconds=1))
    if meant != moment and meant > now:  # the zone changed since: its hour is later
        EmailPreference.objects.filter(pk=pref.pk, digest_at=moment).update(digest_at=meant)
        return 0
    following = next_digest(pref.digest_hour, user.time_zone, max(now, moment))
    note = None
    if user.is_active and user.email and pref.turn_emails and pref.digest:
        seats = waiting_seats(user)
        if seats:
            note = _claim(user, moment, seats)
    moved = EmailPreference.objects.filter(pk=pref.pk, digest_at=moment).update(
        digest_at=following if pref.digest and pref.turn_emails else None
    )
    if note is None or not moved:
        return 0
    return int(services.send_stored(note))


def waiting_seats(user: Any) -> list[Seat]:
    """The seats of the games waiting on the player (active, not resigned, not muted)."""
    muted = GameMute.objects.filter(user=user).values("game_id")
    return list(
        Seat.objects.filter(user=user, to_act=True, resigned=False, game__status=Game.Status.ACTIVE)
        .exclude(game_id__in=muted)
        .select_related("game")
        .order_by("game__deadline", "game_id")
    )


def _claim(user: Any, moment: datetime, seats: list[Seat]) -> Notification | None:
    """Compose the digest and create its row with the email stored on it (one INSERT: no
    moment when the claim holds no email); None when this day's digest exists already."""
    key = f"d{moment.astimezone(zone_named(user.time_zone)).date().isoformat()}"
    if Notification.objects.filter(user=user, game=None, kind=Kind.DIGEST, key=key).exists():
        return None
    message = compose(user, seats)
    note = Notification(
        user=user,
        game=None,
        kind=Kind.DIGEST,
        key=key,
        version=0,
        due_at=timezone.now() + leases.lease(),
    )
    try:
        with transaction.atomic():  # (the row is seen with its email, or not at all)
            note.save(force_insert=True)
            services.store(note, message)
    except IntegrityError:  # another run's
        return None
    return note


def compose(user: Any, seats: list[Seat]) -> EmailMultiAlternatives:
    """The digest in the player's language and zone."""
    language = user.language or settings.LANGUAGE_CODE
    zone = zone_named(user.time_zone)
    with translation.override(language), timezone.override(zone):
        games = [_game_entry(seat, zone) for seat in seats]
        context = {
            "name": user.name,
            "games": games,
            "example": next((g["example"] for g in games if g["example"]), ""),
            "unsubscribe_url": unsubscribe_url(user.pk),
            "site_url": settings.SITE_URL,
        }
        return render_personal("digest", context, user=user)


def _game_entry(seat: Seat, zone: Any) -> dict[str, Any]:
    game = seat.game
    seats = services._seats(game)
    mine = next(s for s in seats if s.pk == seat.pk)
    context = services.email_context(game, seats, mine, Kind.TURN)
    lines = context["board"].split("\n")
    prefix = f"#{game.pk} "
    return {
        **context,
        "id": game.pk,
        "board": "\n".join(lines[:BOARD_LINES]),
        "board_cut": len(lines) > BOARD_LINES,
        "events": context["events"][-EVENTS_SHOWN:],
        "commands": [prefix + c for c in context["commands"][:COMMANDS_SHOWN]],
        "example": prefix + context["example"] if context["example"] else "",
        "more_commands": max(0, len(context["commands"]) - COMMANDS_SHOWN),
        "deadline_local": local_time(game.deadline, zone),
        "game_url": game_url(game.pk),
    }


def render_personal(
    template: str, context: dict[str, Any], *, user: Any, in_reply_to: str = ""
) -> EmailMultiAlternatives:
    """An email about no one game (the digest, its answers): the three templates, the
    player's digest reply address, threaded under the player's own root."""
    language = user.language or settings.LANGUAGE_CODE
    zone = zone_named(user.time_zone)
    unsubscribe = unsubscribe_url(user.pk)
    full = {**context, "unsubscribe_url": unsubscribe, "site_url": settings.SITE_URL}
    with translation.override(language), timezone.override(zone):
        subject = " ".join(
            render_to_string(f"notifications/emails/{template}-subject.txt", full).split()
        )
        text = render_to_string(f"notifications/emails/{template}-body.txt", full)
        html = render_to_string(f"notifications/emails/{template}-body.html", full)
    root = f"<digest-{user.pk}@{site_domain()}>"
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        reply_to=[digest_address(user.pk)],
        headers={
            "Message-ID": make_msgid(domain=site_domain()),
            "In-Reply-To": in_reply_to or root,
            "References": f"{root} {in_reply_to}".strip(),
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-replied" if in_reply_to else "auto-generated",
            "X-Auto-Response-Suppress": "All",  # (Exchange's responders read this one)
        },
    )
    message.attach_alternative(html, "text/html")
    return message
