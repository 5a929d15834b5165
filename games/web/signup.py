"""A sign-up through an invitation's link: the invitation becomes the new account's. Its
address does not (the link proves nothing about a mailbox: allauth's confirmation email
verifies the address the person signed up with, docs/decisions/0024)."""

from __future__ import annotations

from typing import Any

from games import services
from games.web.views import INVITATION_SESSION_KEY


def claim_after_sign_up(sender: Any, *, request: Any, user: Any, **kwargs: Any) -> None:
    """allauth's ``user_signed_up``: claim the invitation the visitor opened before."""
    session = getattr(request, "session", None)
    token = session.pop(INVITATION_SESSION_KEY, None) if session is not None else None
    if token:
        services.claim_invitation(token=token, user=user)
