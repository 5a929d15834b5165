"""Accounts never confirmed go after a week (docs/decisions/0034, "after review").

A sign-up makes the account before its address is confirmed (allauth's code). One never
confirmed cannot sign in, yet it holds its display name (names are one person's) and its
address (its owner, signing up, is told the account exists and must reset a password to take
it). It is someone's typo or someone's squat of a stranger's address: after
:data:`KEPT_FOR` it is removed, as lichess removes accounts whose email was never confirmed.

Only accounts that never signed in, have no verified address, no seat and are not staff:
an account older than mandatory verification that has been used is not touched."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Exists, OuterRef, ProtectedError, RestrictedError
from django.utils import timezone

from accounts.addresses import confirmed
from accounts.models import User

KEPT_FOR = timedelta(days=7)
"""How long an account waits for its address's code (a code lasts 15 minutes; a new one may
be asked for by signing in)."""


def remove_unconfirmed() -> int:
    """Remove the accounts never confirmed older than :data:`KEPT_FOR`; how many went."""
    from games.models import Seat

    stale = (
        User.objects.filter(
            last_login__isnull=True,
            is_staff=False,
            date_joined__lt=timezone.now() - KEPT_FOR,
        )
        .exclude(confirmed())
        .exclude(Exists(Seat.objects.filter(user_id=OuterRef("pk"))))
    )
    removed = 0
    for user in stale.iterator():
        try:
            user.delete()
        except (ProtectedError, RestrictedError):  # (something of theirs must stay: keep it)
            continue
        removed += 1
    return removed
