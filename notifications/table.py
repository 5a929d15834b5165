"""The emails of the table, before and at the start: "you are invited" (with the link),
"X joined" / "X left" (to the others seated), and "the game started" (to every seat, with
the board, the seat order and who moves first).

"joined", "left" and "started" go through the notification rows of
:mod:`notifications.services` (claim, store, send; retried by ``send_due``). The seat the
game waits on at the start gets one email, not two: its "started" email is composed under
the 'your turn' row of that version, so the turn notice finds it claimed.

An invitation may go to an address with no account yet, so no notification row can be keyed
on a user: the invitation row is the claim (``Invitation.email_due_at``, taken with a
conditional UPDATE, ``emailed_at`` once sent), and :func:`send_due_invitations` sends those
whose first try failed or whose sender died. The email is composed from the invitation row
each time (nothing on it changes what the email says but its state, checked at the claim).
See docs/decisions/0013-the-table-on-the-web.md.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, make_msgid
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games.engines.registry import get_engine
from games.models import Game, Invitation, Seat
from games.services.lookups import engine_for
from notifications import leases, mailer, services
from notifications.emails import render_email, site_domain, thread_root
from notifications.services import Kind, Notice

log = logging.getLogger(__name__)


# -- who sits down, who leaves -----------------------------------------------------------


def tell_table(*, game_id: int, change: str, user_id: int, seat_id: int) -> int:
    """Tell the others seated that ``user_id`` joined or left (``change``); how many emails
    were sent. The key is the seat's pk, so joining again after leaving is news again."""
    game = Game.objects.filter(pk=game_id).first()
    mover = User.objects.filter(pk=user_id).first()
    if game is None or mover is None or change not in ("joined", "left"):
        return 0
    kind = Kind.JOINED if change == "joined" else Kind.LEFT
    seats = services._seats(game)
    notices = [
        Notice(s, kind, f"seat{seat_id}")
        for s in seats
        if s.user is not None and s.user_id != user_id and services.wants(s.user, kind)
    ]
    sent = 0
    for notice in notices:
        sent += _send(game, notice, lambda n: _table_email(game, seats, n, mover))
    return sent


def _table_email(game: Game, seats: list[Seat], notice: Notice, mover: Any) -> Any:
    user = notice.seat.user
    assert user is not None
    context = {
        "game": game,
        "game_name": engine_for(game).name,
        "name": notice.seat.name,
        "mover": mover.name,
        "players": [s.name for s in seats],
        "taken": len(seats),
        "max_seats": game.max_seats,
    }
    return _render(notice.kind, context, notice, game)


# -- the start -----------------------------------------------------------------------------


def tell_started(*, game_id: int) -> int:
    """ "The game started" to every person seated, with the board, the seat order and who
    moves first; the seat(s) to act get it as their 'your turn' (one email)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status == Game.Status.OPEN or game.state is None:
        return 0
    seats = services._seats(game)
    waiting = set(engine_for(game).to_act(game.state)) if game.status == "active" else set()
    sent = 0
    for seat in seats:
        if seat.user is None or seat.is_bot:
            continue
        turn = seat.order in waiting and services.wants(seat.user, Kind.TURN)
        if turn:
            notice = Notice(seat, Kind.TURN, f"v{game.version}")
        elif services.wants(seat.user, Kind.STARTED):
            notice = Notice(seat, Kind.STARTED, "start")
        else:
            continue
        sent += _send(game, notice, lambda n: _started_email(game, seats, n))
    return sent


def _started_email(game: Game, seats: list[Seat], notice: Notice) -> Any:
    user = notice.seat.user
    assert user is not None
    with translation.override(user.language or settings.LANGUAGE_CODE):
        context = services.email_context(game, seats, notice.seat, Kind.STARTED)
    first = [s.name for s in seats if s.to_act]
    context.update(
        {
            "first_to_move": first,
            "your_turn": notice.kind == Kind.TURN,
            "events": [],
            "lay_off": _lay_off_offered(game),
        }
    )
    return _render("started", context, notice, game)


def _lay_off_offered(game: Game) -> bool:
    """Whether the game gives a boss the lay-off (the classic edition's choice before each
    bet at their casinos): the start tells each player it is theirs to make, and how, since
    the standing choice made for them is "never" (decision 0042)."""
    return game.game_type == "lords-of-vegas" and (game.options or {}).get("edition") == "classic"


# -- claim, store, send (the rows of notifications.services) --------------------------------


def _send(game: Game, notice: Notice, compose: Any) -> int:
    if notice.seat.user_id in services.muted_users(game.pk):  # (issue 13: a muted game)
        return 0
    note = services.claim(game, notice)
    if note is None:
        return 0
    if not note.subject:
        try:
            services.store(note, compose(notice))
        except Exception as exc:
            log.exception("%s email for game #%s not composed", notice.kind, game.pk)
            services.failed(note, exc)
            return 0
    if services.hold(note, notice.seat.user):  # (issue 13: quiet hours: it waits)
        return 0
    return int(services.send_stored(note))


def _render(template: str, context: dict[str, Any], notice: Notice, game: Game) -> Any:
    user = notice.seat.user
    assert user is not None
    return render_email(
        template,
        context,
        to=user.email,
        language=user.language or settings.LANGUAGE_CODE,
        time_zone=user.time_zone,
        game_id=game.pk,
        seat_id=notice.seat.pk,
        user_id=user.pk,
    )


# -- invitations: the claim is on the invitation row -----------------------------------------


def invitation_url(token: str) -> str:
    return f"{settings.SITE_URL}{reverse('web:invitation', args=[token])}"


def send_invitation(*, invitation_id: int, now: datetime | None = None) -> bool:
    """Send the invitation email if it is due and still pending, once: a conditional
    UPDATE takes it (of racing senders, one wins) for a lease; True: sent."""
    now = now or timezone.now()
    due = Invitation.objects.filter(
        pk=invitation_id,
        emailed_at__isnull=True,
        email_due_at__lte=now,
        accepted_at__isnull=True,
        declined_at__isnull=True,
        withdrawn_at__isnull=True,
    )
    if not leases.take(due, now, due="email_due_at", attempts="email_attempts"):
        return False
    invitation = Invitation.objects.select_related("game", "invited_by", "invitee").get(
        pk=invitation_id
    )
    try:
        mailer.send(invitation_email(invitation))
    except Exception:
        log.exception("invitation #%s email failed", invitation.pk)
        retry = leases.next_try(invitation.email_attempts, now)
        if retry is None:
            log.error("invitation #%s email given up", invitation.pk)
        Invitation.objects.filter(pk=invitation.pk).update(email_due_at=retry)
        return False
    Invitation.objects.filter(pk=invitation.pk).update(emailed_at=timezone.now(), email_due_at=None)
    return True


def send_due_invitations(*, now: datetime | None = None, batch: int = 100) -> int:
    """The invitation emails due (a failed try, a sender that died): the periodic task."""
    now = now or timezone.now()
    due = Invitation.objects.filter(emailed_at__isnull=True, email_due_at__lte=now)
    ids = list(due.order_by("email_due_at").values_list("pk", flat=True)[:batch])
    return sum(send_invitation(invitation_id=pk, now=now) for pk in ids)


def invitation_email(invitation: Invitation) -> EmailMultiAlternatives:
    """The invitation, in the invitee's language if they have an account, else in the
    inviter's; with the link that seats them (or lets them sign up)."""
    game = invitation.game
    reader = invitation.invitee or invitation.invited_by
    language = getattr(reader, "language", "") or settings.LANGUAGE_CODE
    engine = get_engine(game.game_type)
    seats = list(game.seats.select_related("user").order_by("order"))
    with translation.override(language):
        context = {
            "game": game,
            "game_name": engine.name,
            "inviter": invitation.invited_by.name if invitation.invited_by else "",
            "players": [s.name for s in seats],
            "taken": len(seats),
            "link": invitation_url(invitation.token),
            "has_account": invitation.invitee is not None,
            "name": invitation.invitee.name if invitation.invitee else "",
        }
        subject = " ".join(
            render_to_string("notifications/emails/invitation-subject.txt", context).split()
        )
        text = render_to_string("notifications/emails/invitation-body.txt", context)
        html = render_to_string("notifications/emails/invitation-body.html", context)
    root = thread_root(game.pk)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[invitation.mail_to],
        headers={
            "Message-ID": make_msgid(domain=site_domain()),
            "In-Reply-To": root,
            "References": root,
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message
