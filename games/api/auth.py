"""Token authentication for the API: knox's tokens, checked with one query.

knox's own ``TokenAuthentication`` also sweeps the user's *other* expired tokens on every
request (a second query each time, and pointless with ``TOKEN_TTL = None``). This one reads
the token and its user together, refuses (and deletes) the token if it has expired, and
leaves the sweep to whoever sets a TTL. Same header (``Authorization: Token <token>``), same
hashed storage, same answers.
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth as knox_auth
from knox.models import AuthToken
from knox.signals import token_expired


class TokenAuthentication(knox_auth.TokenAuthentication):
    def _cleanup_token(self, auth_token: AuthToken) -> bool:
        """True (and the token deleted) when ``auth_token`` itself has expired."""
        if auth_token.expiry is None or auth_token.expiry >= timezone.now():
            return False
        username = auth_token.user.get_username()
        auth_token.delete()
        token_expired.send(sender=type(self), username=username, source="auth_token")
        return True


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of :class:`TokenAuthentication` (knox's)."""

    target_class = "games.api.auth.TokenAuthentication"
