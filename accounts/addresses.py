"""Which email addresses of a user are theirs for sure: the ones they verified.

Invitations to private games are addressed to an email; an address only counts for them once
its owner has proved it (allauth's ``EmailAddress.verified``: the confirmation link was
followed, or its code typed). Anyone may add an address they do not own to their account,
and, where ``ACCOUNT_EMAIL_VERIFICATION`` is set back to "optional", sign up with one and be
signed in at once (it is "mandatory" by default: docs/decisions/0034): such an address must
open nothing until it is confirmed. Only that confirmation verifies an address: following
an invitation's link does not (a link can be forwarded or seen on its way, and proves nothing
about a mailbox: docs/decisions/0024-invitations-and-what-they-show.md).

Users made by the server itself (``User.objects.create_user``: ``createsuperuser``, the demo
seed, the tests) get their address recorded as verified: whoever created them vouched for it
(docs/decisions/0007-sign-in-lockout.md, "verified addresses").
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.db.models import Exists, OuterRef, Q


def verified_emails(user: Any) -> set[str]:
    """The user's verified addresses, lower-cased (empty for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    found = EmailAddress.objects.filter(user_id=user.pk, verified=True)
    return {email.lower() for email in found.values_list("email", flat=True)}


def to_verified(field: str, user: Any) -> Q:
    """Rows whose address ``field`` is one of the user's *verified* addresses (none for no
    address): only those are theirs. An unconfirmed address may be anybody's claim, so its
    invitations, their tokens and the emails to it are not (review, issue 15 session)."""
    found = Q(pk__in=[])
    for email in verified_emails(user):
        found |= Q(**{f"{field}__iexact": email})
    return found


def record_verified(user: Any) -> None:
    """Record ``user.email`` as a verified (and primary) address of ``user``."""
    EmailAddress.objects.update_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )


def user_at_verified(email: str) -> Any:
    """The account whose *verified* address ``email`` is, or None."""
    found = EmailAddress.objects.filter(email__iexact=email, verified=True).select_related("user")
    address = found.first()
    return address.user if address is not None else None


def confirmed() -> Exists:
    """For a filter of users: those with a verified address. Only they are found by name
    (invitations by name in games and leagues): an account never confirmed may hold a
    stranger's address, which an invitation would then be mailed to (review of 0034)."""
    return Exists(EmailAddress.objects.filter(user_id=OuterRef("pk"), verified=True))
