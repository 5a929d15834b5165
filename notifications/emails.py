"""Turning a notice into an email: three templates of one name (subject, text, HTML), in the
recipient's language and time zone, with the headers that thread it, answer it and stop it.

Nothing here decides who gets what (``notifications.services`` does) and nothing here reads
hidden information: the board comes from ``games.selectors.game_view`` for the recipient.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, make_msgid
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import zone_named
from lords.dates import when
from notifications.addresses import reply_address, unsubscribe_token


def site_domain() -> str:
    """The domain of ``SITE_URL``: the right-hand side of our Message-IDs."""
    return (urlsplit(settings.SITE_URL).hostname or "localhost").lower()


def thread_root(game_id: int) -> str:
    """The stable id every email of one game refers to, so that mail clients thread them."""
    return f"<game-{game_id}@{site_domain()}>"


def local_time(moment: datetime | None, zone: ZoneInfo) -> str:
    """``Tuesday 24 Nov, 18:00 (Europe/Paris)`` in the active language (the day written
    out: ``dates.when``'s deadline style); "" without a moment."""
    if moment is None:
        return ""
    with timezone.override(zone):
        return f"{when(moment, 'deadline')} ({zone.key})"


def game_url(game_id: int) -> str:
    return f"{settings.SITE_URL}/games/{game_id}/"


def unsubscribe_url(user_id: int) -> str:
    path = reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id)])
    return f"{settings.SITE_URL}{path}"


def render_email(
    template: str,
    context: dict[str, Any],
    *,
    to: str,
    language: str,
    time_zone: str,
    game_id: int,
    seat_id: int,
    user_id: int,
) -> EmailMultiAlternatives:
    """``notifications/emails/<template>-subject.txt``, ``-body.txt`` and ``-body.html``,
    rendered for one recipient, with the threading, reply and unsubscribe headers."""
    zone = zone_named(time_zone)
    unsubscribe = unsubscribe_url(user_id)
    with translation.override(language), timezone.override(zone):
        full = {
            **context,
            "deadline_local": local_time(context.get("deadline"), zone),
            "game_url": game_url(game_id),
            "unsubscribe_url": unsubscribe,
        }
        subject = " ".join(
            render_to_string(f"notifications/emails/{template}-subject.txt", full).split()
        )
        text = render_to_string(f"notifications/emails/{template}-body.txt", full)
        html = render_to_string(f"notifications/emails/{template}-body.html", full)
    root = thread_root(game_id)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        reply_to=[reply_address(game_id, seat_id)],
        headers={
            "Message-ID": make_msgid(domain=site_domain()),
            "In-Reply-To": root,
            "References": root,
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # RFC 3834: automatic mail; vacation responders should not answer it (Exchange's
            # read the second header).
            "Auto-Submitted": "auto-generated",
            "X-Auto-Response-Suppress": "All",
        },
    )
    message.attach_alternative(html, "text/html")
    return message
