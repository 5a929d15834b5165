"""Deleting an account: the person goes, their games stay whole.

The user row is *anonymised*, not deleted: seats, moves, trade offers and league games point
at it (``Seat.user`` is PROTECT), and every finished game must still replay from its log. So
the row keeps its id and loses everything that says who it was: the email becomes
``former-<id>@deleted.invalid`` (the address is free to sign up again), the display name goes
(``User.name`` then reads "former player", in each reader's language), the password becomes
unusable and the account inactive (no sign-in by any door), its tokens, email addresses,
email choices, emails (league ones too), webhooks, pending events, calendar feed and private
notes are deleted. Active games are resigned first through the games' own service (a bot
plays the seat on), open games are left. What they wrote at the tables stays, under "former
player". Stored text that spelled the name out (a trade offer's "declined by Ada", other
players' copies of emails) has it replaced. See docs/decisions/0011-your-data.md.

This module sits above games, notifications and leagues (none of them imports it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from allauth.account.models import EmailAddress
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q
from knox.models import AuthToken

from accounts.addresses import to_verified
from accounts.models import FORMER_DOMAIN, User
from games import services as games
from games.models import (
    CalendarFeed,
    Game,
    Invitation,
    PlayerEvent,
    PlayerNote,
    Seat,
    TradeOffer,
    Webhook,
)
from leagues import services as leagues
from leagues.models import JoinRequest, League, LeagueInvitation
from leagues.models import Mail as LeagueMail
from notifications.models import EmailPreference, Notification

FORMER_NAME = "former player"
"""What replaces the name in stored text (the pages translate ``User.name`` themselves)."""


@dataclass(frozen=True)
class Deleted:
    """What deleting an account did to its games (ids)."""

    user_id: int
    resigned: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)


def former_email(user_id: int) -> str:
    """The placeholder address of a deleted account: unique, never deliverable."""
    return f"former-{user_id}@{FORMER_DOMAIN}"


def games_affected(*, user: User) -> dict[str, int]:
    """What deleting the account would do to the person's games, for the confirmation page:
    how many would be resigned (running), left (not started), kept as they are (ended)."""
    seats = Seat.objects.filter(user=user)
    return {
        "resigned": seats.filter(game__status=Game.Status.ACTIVE, resigned=False).count(),
        "left": seats.filter(game__status=Game.Status.OPEN).count(),
        "kept": seats.filter(game__status=Game.Status.FINISHED).count(),
    }


def delete_account(*, user: User) -> Deleted:
    """Delete ``user``'s account as described above, all or nothing (one transaction). A
    second call on an already deleted account changes nothing."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_former:
            return Deleted(user_id=locked.pk)
        names = _names(locked)
        resigned, left = _leave_games(locked)
        _leave_leagues(locked)
        _forget_invitations(locked)
        _forget_access_and_email(locked)
        _forget_notes(locked)
        _anonymise(locked)
        _scrub_text(locked, names)
    user.refresh_from_db()
    return Deleted(user_id=locked.pk, resigned=resigned, left=left)


def _names(user: User) -> list[str]:
    """Every spelling of the person other players' stored text may hold: the address, and
    the name shown (the display name; for an account without one, "Player 12" and the
    address's local part, which stood in for the name until decision 0030)."""
    spellings = {user.email, user.display_name, user.name}
    if not user.display_name:
        spellings.add(user.email.split("@", 1)[0])
    return [n for n in spellings if n.strip()]


def _leave_games(user: User) -> tuple[list[int], list[int]]:
    """Resign the running games (a bot takes over, as for any resignation) and leave the
    open ones; finished and cancelled games keep the seat as it is."""
    resigned, left = [], []
    seats = Seat.objects.filter(user=user).select_related("game").order_by("game_id")
    for seat in seats:
        game = seat.game
        if game.status == Game.Status.ACTIVE and not seat.resigned:
            games.resign(game=game.pk, user=user, source="system")  # (the account goes)
            resigned.append(game.pk)
        elif game.status == Game.Status.OPEN:
            games.leave_game(game=game.pk, user=user)
            left.append(game.pk)
    return resigned, left


def _leave_leagues(user: User) -> None:
    """Leave every league (draft season entries go with it; seasons under way keep their
    games) and stop administering any."""
    for league in League.objects.filter(memberships__user=user).distinct():
        leagues.leave_league(league=league, user=user)
    for league in League.objects.filter(admins=user):
        league.admins.remove(user)


def _forget_invitations(user: User) -> None:
    """Invitations to the address, to a game or a league: pending ones go, accepted ones
    keep the history under the placeholder address. The person's requests to join a league
    go (an admin would otherwise let a former player in)."""
    for model in (Invitation, LeagueInvitation):
        # Only to the person's *verified* addresses: an unconfirmed one may be someone
        # else's, and so are its invitations.
        theirs = model.objects.filter(to_verified("email", user))
        theirs.filter(accepted_at__isnull=True).delete()
        theirs.update(email=former_email(user.pk))
    # An invitation by name keeps no address: the pending ones go too (found by review),
    # the answered ones keep the former player's name.
    Invitation.objects.filter(invitee=user, accepted_at__isnull=True).delete()
    Invitation.objects.filter(invitee=user).exclude(email="").update(email=former_email(user.pk))
    LeagueInvitation.objects.filter(invitee=user, accepted_at__isnull=True).delete()
    JoinRequest.objects.filter(user=user).delete()


def _forget_access_and_email(user: User) -> None:
    """No token, no address to sign in or sign up with, no email choices, no emails kept,
    and no channel left open: the webhooks (they would carry the table's talk to the
    person's URL), the events waiting for them, the calendar feed's secret address."""
    AuthToken.objects.filter(user=user).delete()
    # (before the addresses go: the emails to them are found by the verified ones)
    LeagueMail.objects.filter(
        Q(user=user) | Q(user__isnull=True) & to_verified("to", user)
    ).delete()
    EmailAddress.objects.filter(Q(user=user) | Q(email__iexact=user.email)).delete()
    EmailPreference.objects.filter(user=user).delete()
    Notification.objects.filter(user=user).delete()
    Webhook.objects.filter(user=user).delete()
    PlayerEvent.objects.filter(user=user).delete()
    CalendarFeed.objects.filter(user=user).delete()


def _forget_notes(user: User) -> None:
    """The private notes are the person's alone: nobody else reads them, so they go. (What
    they wrote to the table stays, under "former player": it is the others' talk too.)"""
    PlayerNote.objects.filter(user=user).delete()


def _anonymise(user: User) -> None:
    """The row keeps its id and nothing else of the person."""
    user.email = former_email(user.pk)
    user.display_name = ""
    user.set_unusable_password()  # also ends every session (its hash no longer matches)
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.away_until = None
    user.time_zone = "UTC"
    user.language = "en"
    user.last_login = None
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)
    ).update(object_repr=str(user.pk))


def _scrub_text(user: User, names: Iterable[str]) -> None:
    """Replace the name in the stored text of the games the person sat in: trade offers'
    messages and the other players' copies of the emails about those games."""
    pattern = _pattern(names)
    if pattern is None:
        return
    game_ids = list(Seat.objects.filter(user=user).values_list("game_id", flat=True))
    for offer in TradeOffer.objects.filter(game_id__in=game_ids):
        message = pattern.sub(FORMER_NAME, offer.message)
        if message != offer.message:
            TradeOffer.objects.filter(pk=offer.pk).update(message=message)
    text_fields = [
        f.name
        for f in Notification._meta.concrete_fields
        if f.get_internal_type() in ("CharField", "TextField")
    ]
    for notification in Notification.objects.filter(game_id__in=game_ids):
        changed = {
            name: pattern.sub(FORMER_NAME, getattr(notification, name)) for name in text_fields
        }
        changed = {k: v for k, v in changed.items() if v != getattr(notification, k)}
        if changed:
            Notification.objects.filter(pk=notification.pk).update(**changed)


def _pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """The names as whole words (``Ada`` but not ``Adam``), longest first, any case."""
    spelled = sorted({n for n in names if n}, key=len, reverse=True)
    if not spelled:
        return None
    words = "|".join(re.escape(n) for n in spelled)
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE)
