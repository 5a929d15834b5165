"""League email: invitations, announcements and the game tools' notices.

The notifications app's claim rows are keyed per game and per seat; a league's email
has no game (an announcement, an invitation to an address nobody owns yet). So the
simplest durable record is our own outbox, :class:`leagues.models.Mail`: one row per
recipient, the email rendered in their language when it is decided and written in the
same transaction as what it tells; after the commit (and every minute, Celery beat) a
sender takes waiting rows and sends them, under the one discipline of the site's stored
emails (:mod:`notifications.leases`: a lease, tries with a backoff for some thirteen hours).
Templates: three of one name (subject, text, HTML) as the notifications app's, under
``leagues/emails/``.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, make_msgid
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from leagues.models import Mail
from notifications import leases, mailer
from notifications import services as notifications
from notifications.emails import site_domain, unsubscribe_url

log = logging.getLogger(__name__)


def wants(user: Any, kind: str) -> bool:
    """A member's email choices: nothing to an unsubscribed or inactive person; the game
    tools' notices follow their game email choice; announcements and a season's end too
    (there is no separate switch yet: "turn emails" is their "game email"). An invitation
    (a person asked by another person) and a removal (what an admin did to their
    membership: they would otherwise learn it from a button gone) go whatever the game email
    choice."""
    if user is None or not user.is_active or not user.email:
        return False
    pref = notifications.preference(user)
    if kind in ("invitation", "removed"):
        return pref.unsubscribed_at is None
    return pref.unsubscribed_at is None and bool(pref.turn_emails)


def queue(
    *,
    kind: str,
    template: str,
    context: dict[str, Any],
    user: Any = None,
    email: str = "",
    language: str = "",
    league: Any = None,
    game: Any = None,
) -> Mail | None:
    """Render ``leagues/emails/<template>-*`` for one recipient and store it to be sent
    after the commit. A user who does not want it gets nothing (None)."""
    if user is not None and not wants(user, kind):
        return None
    to = user.email if user is not None else email
    language = language or getattr(user, "language", "") or settings.LANGUAGE_CODE
    full = {**context, "site_url": settings.SITE_URL}
    headers = {"Message-ID": make_msgid(domain=site_domain()), "Auto-Submitted": "auto-generated"}
    if user is not None:
        full["unsubscribe_url"] = unsubscribe_url(user.pk)
        headers["List-Unsubscribe"] = f"<{full['unsubscribe_url']}>"
    zone = user.zone if user is not None else UTC  # (not the sender's: the page's zone)
    with translation.override(language), timezone.override(zone):
        subject = " ".join(render_to_string(f"leagues/emails/{template}-subject.txt", full).split())
        text = render_to_string(f"leagues/emails/{template}-body.txt", full)
        html = render_to_string(f"leagues/emails/{template}-body.html", full)
    mail = Mail.objects.create(
        kind=kind,
        to=to,
        user=user,
        league=league,
        game=game,
        subject=subject[:300],
        body_text=text,
        body_html=html,
        headers=headers,
        due_at=timezone.now(),
    )
    transaction.on_commit(_send_soon)
    return mail


def _send_soon() -> None:
    from leagues import tasks  # (tasks imports this module)

    tasks.send_league_mail.delay()


def send_waiting(*, now: datetime | None = None, batch: int = 100) -> int:
    """Send the waiting league emails (those due: new, a failed try, a sender that died);
    returns how many were sent."""
    now = now or timezone.now()
    waiting = Mail.objects.filter(sent_at__isnull=True, due_at__lte=now)
    ids = list(waiting.order_by("due_at", "id").values_list("pk", flat=True)[:batch])
    return sum(_send(pk, now) for pk in ids if leases.take(waiting.filter(pk=pk), now))


def _send(pk: int, now: datetime) -> bool:
    mail = Mail.objects.get(pk=pk)
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.body_text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers=mail.headers,
    )
    if mail.body_html:
        message.attach_alternative(mail.body_html, "text/html")
    try:
        mailer.send(message)
    except Exception as exc:  # the SMTP server's fault: try again later, say why
        log.exception("league email #%s (%s) failed", pk, mail.kind)
        retry = leases.next_try(mail.attempts, now)
        if retry is None:
            log.error("league email #%s (%s) given up", pk, mail.kind)
        Mail.objects.filter(pk=pk).update(error=repr(exc)[:2000], due_at=retry)
        return False
    Mail.objects.filter(pk=pk).update(sent_at=timezone.now(), due_at=None, error="")
    return True
