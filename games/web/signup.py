"""A sign-up through an invitation's link: the invitation becomes the new account's once
the account's address is confirmed (its code typed, in the browser that opened the link).
Claimed at sign-up, before the code, it went to an account nobody may ever sign in to (an
address mistyped: found by review of decision 0034), and the person who then signed up with
the right address found it taken. The link's address does not become the account's (the link
proves nothing about a mailbox: docs/decisions/0024)."""

from __future__ import annotations

from typing import Any

from games import services
from games.web.views import INVITATION_SESSION_KEY


def claim_once_confirmed(sender: Any, *, request: Any, email_address: Any, **kwargs: Any) -> None:
    """allauth's ``email_confirmed``: claim the invitation the visitor opened before."""
    session = getattr(request, "session", None)
    token = session.pop(INVITATION_SESSION_KEY, None) if session is not None else None
    if token:
        services.claim_invitation(token=token, user=email_address.user)
