"""Everything the server keeps about one person, as one JSON document ("download my data").

Games come as the players themselves see them: a finished game as its public record
(``games.services.export_game``, seed and all), a game not finished as the person's own
seat's view (``games.selectors.game_view``) and its public move log, so the file never holds
another player's hidden information; of the table talk, what the person wrote, and their
own notes (never another player's). The emails are the ``Notification`` rows addressed to
the person (and the league emails, ``leagues.models.Mail``), every field but the internal
ones, so a field added to the model shows up here without a change. Secrets that work as
credentials (a token's digest, a webhook's signing secret, the calendar's address) are left
out. The web door (``/profile/data/``) and the API (``GET
/api/v1/profile/data/``) both serve :func:`personal_data`. See
docs/decisions/0011-your-data.md.

This module sits above games, notifications and leagues (none of them imports it).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model, Q
from django.utils import timezone
from knox.models import AuthToken

from accounts.addresses import to_verified
from accounts.models import User
from games import selectors
from games.models import (
    CalendarFeed,
    ChatMessage,
    Game,
    Invitation,
    PlayerNote,
    Seat,
    TradeOffer,
    Webhook,
)
from games.services import export_game
from leagues.models import (
    JoinRequest,
    League,
    LeagueInvitation,
    Membership,
    Removal,
    SeasonEntry,
)
from leagues.models import Mail as LeagueMail
from notifications import services as notifications
from notifications.models import Notification

FORMAT = "lords-personal-data/1"

NOTIFICATION_INTERNALS = {"id", "user", "seat", "attempts", "due_at", "error"}
"""Bookkeeping of the sender (the claim, its retries), not part of the email."""
MAIL_INTERNALS = {"id", "user", "attempts", "due_at", "error"}
"""The same bookkeeping in the league emails (``leagues.models.Mail``)."""


def personal_data(*, user: User) -> dict[str, Any]:
    """The person's data, JSON-ready (times as ISO 8601 strings)."""
    seats = list(Seat.objects.filter(user=user).select_related("game").order_by("game_id"))
    data = {
        "format": FORMAT,
        "exported_at": timezone.now(),
        "profile": _profile(user),
        "email_addresses": _email_addresses(user),
        "email_preferences": _email_preferences(user),
        "api_tokens": _tokens(user),
        "games": [_game(seat, user) for seat in seats],
        "games_created": list(
            Game.objects.filter(created_by=user).order_by("pk").values_list("pk", flat=True)
        ),
        "invitations": _invitations(user),
        "trade_offers": _trade_offers(seats),
        "messages": _messages(user),
        "notes": _notes(user),
        "leagues": _leagues(user),
        "emails": _emails(user),
        "webhooks": _webhooks(user),
        "calendar_feed": _calendar_feed(user),
    }
    loaded: dict[str, Any] = json.loads(json.dumps(data, cls=DjangoJSONEncoder))
    return loaded


def _profile(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "email": user.email,
        "display_name": user.display_name,
        "name": user.name,
        "language": user.language,
        "time_zone": user.time_zone,
        "away_until": user.away_until,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
        "is_staff": user.is_staff,
    }


def _email_addresses(user: User) -> list[dict[str, Any]]:
    rows = EmailAddress.objects.filter(user=user).order_by("pk")
    return [{"email": a.email, "verified": a.verified, "primary": a.primary} for a in rows]


def _email_preferences(user: User) -> dict[str, Any]:
    pref = notifications.preference(user)
    return {
        "turn_emails": pref.turn_emails,
        "reminders": pref.reminders,
        "unsubscribed_at": pref.unsubscribed_at,
        "digest": pref.digest,
        "digest_hour": pref.digest_hour,
        "quiet_from": pref.quiet_from.isoformat() if pref.quiet_from else None,
        "quiet_until": pref.quiet_until.isoformat() if pref.quiet_until else None,
        "remind_before": list(pref.remind_before or []),
        "muted_games": [g.pk for g in notifications.muted_games(user)],
    }


def _tokens(user: User) -> list[dict[str, Any]]:
    """Which tokens exist, never their digests (the secret stays unrecoverable)."""
    tokens = AuthToken.objects.filter(user=user).order_by("created")
    return [{"token_key": t.token_key, "created": t.created, "expiry": t.expiry} for t in tokens]


def _game(seat: Seat, user: User) -> dict[str, Any]:
    """One game the person sits in: their seat, and the game as they may see it."""
    game = seat.game
    entry: dict[str, Any] = {
        "id": game.pk,
        "game_type": game.game_type,
        "status": game.status,
        "seat": {
            "order": seat.order,
            "colour": seat.colour,
            "joined_at": seat.joined_at,
            "resigned": seat.resigned,
            "resigned_at": seat.resigned_at,
            "timeouts": seat.timeouts,
            "timeouts_in_a_row": seat.timeouts_in_a_row,
            "vacation_used_seconds": _seconds(seat.vacation_used),
            "preferences": seat.preferences,
        },
    }
    if game.status == Game.Status.FINISHED:
        entry["record"] = export_game(game=game)
    else:
        entry["view"] = selectors.game_view(game=game, user=user)
        entry["moves"] = selectors.moves_since(game=game, user=user)
    return entry


def _seconds(value: timedelta) -> float:
    return value.total_seconds()


def _invitations(user: User) -> dict[str, list[dict[str, Any]]]:
    """Invitations sent to the person's address and those they sent (never the join token
    of someone else's invitation)."""
    found = Invitation.objects.select_related("invitee")
    received = found.filter(Q(invitee=user) | to_verified("email", user))
    sent = found.filter(invited_by=user).order_by("pk")
    return {
        "received": [_invitation(i, token=True) for i in received.order_by("pk")],
        "sent": [_invitation(i, token=False) for i in sent],
    }


def _invitation(invitation: Invitation, *, token: bool) -> dict[str, Any]:
    """``email``: the address typed; an invitation by a player's name has none, and names
    the player (the inviter never sees that player's address, docs/decisions/0024)."""
    row = {
        "game": invitation.game_id,
        "email": invitation.email or None,
        "player": None if invitation.email else invitation.addressed_to or None,
        "invited_by": invitation.invited_by_id,
        "created_at": invitation.created_at,
        "accepted_at": invitation.accepted_at,
    }
    return {**row, "token": invitation.token} if token else row


def _trade_offers(seats: list[Seat]) -> list[dict[str, Any]]:
    """The offers the person made or was asked to accept (a party of, by seat order)."""
    order = {seat.game_id: seat.order for seat in seats}
    offers = [
        o
        for o in TradeOffer.objects.filter(game_id__in=order)
        .select_related("proposer")
        .order_by("pk")
        if o.proposer.order == order[o.game_id] or order[o.game_id] in o.parties
    ]
    return [
        {
            "id": o.pk,
            "game": o.game_id,
            "proposer_seat": o.proposer.order,
            "text": o.text,
            "parties": o.parties,
            "accepted_by": o.accepted_by,
            "status": o.status,
            "message": o.message,
            "created_at": o.created_at,
            "expires_at": o.expires_at,
            "resolved_at": o.resolved_at,
        }
        for o in offers
    ]


def _messages(user: User) -> list[dict[str, Any]]:
    """What the person wrote at the tables (to the table, or privately to a seat), hidden
    by staff or not: their words; and what was written privately to them (not hidden by
    the staff). Never a private message between two others; the table's talk of others is
    not theirs to take."""
    rows = (
        ChatMessage.objects.filter(Q(author_user=user) | Q(to_user=user, hidden_at__isnull=True))
        .select_related("author", "to")
        .order_by("created_at", "pk")
    )
    return [
        {
            "id": m.pk,
            "game": m.game_id,
            "seat": m.author.order,
            "to": m.to.order if m.to is not None else None,
            "text": m.text,
            "source": m.source,
            "created_at": m.created_at,
            "hidden": m.hidden_at is not None,
        }
        for m in rows
    ]


def _notes(user: User) -> list[dict[str, Any]]:
    """The person's private notes, game by game (only their own seats' notes)."""
    rows = PlayerNote.objects.filter(user=user).select_related("seat").order_by("seat_id")
    return [{"game": n.seat.game_id, "text": n.text, "updated_at": n.updated_at} for n in rows]


def _webhooks(user: User) -> list[dict[str, Any]]:
    """The person's webhooks, never their signing secrets."""
    rows = Webhook.objects.filter(user=user).order_by("pk")
    return [
        {
            "id": h.pk,
            "url": h.url,
            "active": h.active,
            "created_at": h.created_at,
            "failures": h.failures,
            "last_error": h.last_error,
        }
        for h in rows
    ]


def _calendar_feed(user: User) -> dict[str, Any] | None:
    """Whether the person has a calendar address (since when); not the address itself: it
    is a credential, as a token's secret is."""
    feed = CalendarFeed.objects.filter(user=user).first()
    return None if feed is None else {"created_at": feed.created_at}


def _leagues(user: User) -> dict[str, Any]:
    memberships = Membership.objects.filter(user=user).select_related("league")
    entries = SeasonEntry.objects.filter(user=user).select_related("season__league")
    return {
        "memberships": [
            {"league": m.league.slug, "name": m.league.name, "joined_at": m.joined_at}
            for m in memberships
        ],
        "season_entries": [
            {
                "league": e.season.league.slug,
                "season": e.season.number,
                "entered_at": e.entered_at,
            }
            for e in entries
        ],
        "administered": list(
            League.objects.filter(admins=user).order_by("slug").values_list("slug", flat=True)
        ),
        "created": list(
            League.objects.filter(created_by=user).order_by("slug").values_list("slug", flat=True)
        ),
        "join_requests": [
            {"league": r.league.slug, "created_at": r.created_at}
            for r in JoinRequest.objects.filter(user=user).select_related("league").order_by("pk")
        ],
        # (an admin removed them: they come back only invited; who removed them is the
        # league's, not theirs)
        "removed_from": [
            {"league": r.league.slug, "removed_at": r.removed_at}
            for r in Removal.objects.filter(user=user).select_related("league").order_by("pk")
        ],
        "invitations": _league_invitations(user),
        "emails": [
            _fields(m, MAIL_INTERNALS)
            for m in LeagueMail.objects.filter(
                Q(user=user) | Q(user__isnull=True) & to_verified("to", user)
            ).order_by("created_at", "pk")
        ],
    }


def _league_invitations(user: User) -> dict[str, list[dict[str, Any]]]:
    """League invitations to the person's address or by their name (with their link's
    token: it is theirs) and those they sent (without it), as for the games' invitations."""
    found = LeagueInvitation.objects.select_related("league", "invitee")
    received = found.filter(Q(invitee=user) | to_verified("email", user))
    sent = found.filter(invited_by=user)

    def row(invitation: LeagueInvitation, *, token: bool) -> dict[str, Any]:
        # (by a player's name: no address, the player named, as the games' invitations)
        invitee = invitation.invitee
        found = {
            "league": invitation.league.slug,
            "email": invitation.email or None,
            "player": None if invitation.email or invitee is None else invitee.name,
            "invited_by": invitation.invited_by_id,
            "created_at": invitation.created_at,
            "accepted_at": invitation.accepted_at,
            "withdrawn_at": invitation.withdrawn_at,
            "expires_at": invitation.expires_at,
        }
        return {**found, "token": invitation.token} if token else found

    return {
        "received": [row(i, token=True) for i in received.order_by("pk")],
        "sent": [row(i, token=False) for i in sent.order_by("pk")],
    }


def _emails(user: User) -> list[dict[str, Any]]:
    rows = Notification.objects.filter(user=user).order_by("created_at", "pk")
    return [_fields(row, NOTIFICATION_INTERNALS) for row in rows]


def _fields(row: Model, leave_out: set[str]) -> dict[str, Any]:
    """Every concrete field of ``row`` but ``leave_out``; a relation as the related id."""
    return {
        f.name: getattr(row, f.attname)
        for f in row._meta.concrete_fields
        if f.name not in leave_out
    }


def filename(user: User, now: datetime | None = None) -> str:
    """``lords-data-<id>-<date>.json``: no name or address in a file that gets shared."""
    return f"lords-data-{user.pk}-{(now or timezone.now()).date().isoformat()}.json"
