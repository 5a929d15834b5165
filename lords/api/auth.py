"""Token authentication for the API: knox's tokens, checked with one query.

knox's own ``TokenAuthentication`` also sweeps the user's *other* expired tokens on every
request (a second query each time, and pointless with ``TOKEN_TTL = None``). This one reads
the token and its user together, refuses (and deletes) the token if it has expired, and
leaves the sweep to whoever sets a TTL. Same header (``Authorization: Token <token>``), same
hashed storage, same answers.

The query is the ORM's ``filter(token_key=...).select_related("user")``, written out once per
database connection from the models' own fields (every request pays for it: building and
compiling the queryset cost about as much as the round trip to PostgreSQL). Rows become
model instances through ``Model.from_db`` with each field's database converters, as the ORM
does.
"""

from __future__ import annotations

import binascii
from collections.abc import Callable
from hmac import compare_digest
from typing import Any, cast

from django.conf import settings
from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.expressions import Col
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.authentication import SessionScheme as SpectacularSessionScheme
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import authentication, exceptions
from rest_framework.authentication import CSRFCheck

from lords.api.csrf import csrf_refusal

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]
Converters = list[tuple[int, Col, list[Converter]]]


class _TokenQuery:
    """``SELECT <token's columns>, <user's columns> FROM token JOIN user WHERE token_key = %s``
    and how to turn its rows back into an ``AuthToken`` with its ``user`` loaded."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        token_model = AuthToken
        user_field = token_model._meta.get_field("user")
        user_model: type[Model] = user_field.related_model
        quote = connection.ops.quote_name
        self.parts: list[tuple[type[Model], list[str], Converters]] = []
        columns: list[str] = []
        for model in (token_model, user_model):
            table = model._meta.db_table
            fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
            converters: Converters = []
            for i, field in enumerate(fields):
                col = field.get_col(table)
                found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
                if found:
                    converters.append((len(columns) + i, col, found))
            # A concrete field always has a column.
            columns.extend(f"{quote(table)}.{quote(str(f.column))}" for f in fields)
            self.parts.append((model, [f.attname for f in fields], converters))
        token_table, user_table = token_model._meta.db_table, user_model._meta.db_table
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {quote(token_table)}"
            f" INNER JOIN {quote(user_table)}"
            f" ON ({quote(token_table)}.{quote(str(user_field.column))}"
            f" = {quote(user_table)}.{quote(str(user_model._meta.pk.column))})"
            f" WHERE {quote(token_table)}.{quote('token_key')} = %s"
        )
        self.user_field = user_field

    def tokens(self, connection: BaseDatabaseWrapper, key: str) -> list[AuthToken]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [key])
            rows = cursor.fetchall()
        found: list[AuthToken] = []
        for row in rows:
            values = list(row)
            instances = []
            start = 0
            for model, attnames, converters in self.parts:
                for index, col, convert in converters:
                    for converter in convert:
                        values[index] = converter(values[index], col, connection)
                end = start + len(attnames)
                instances.append(model.from_db(connection.alias, attnames, values[start:end]))
                start = end
            token, user = instances
            self.user_field.set_cached_value(token, user)
            found.append(cast(AuthToken, token))
        return found


def tokens_with_user(key: str) -> list[AuthToken]:
    """The tokens whose key (the token's first characters) is ``key``, each with its user."""
    connection = connections[router.db_for_read(AuthToken)]
    query: _TokenQuery | None = getattr(connection, "_lords_token_query", None)
    if query is None:
        query = _TokenQuery(connection)
        connection._lords_token_query = query  # type: ignore[attr-defined]
    return query.tokens(connection, key)


def speak_to(request: Any, user: Any) -> None:
    """The API answers in the language the request asks for (``Accept-Language``, which
    ``LocaleMiddleware`` already applied), else in the player's saved language: a script
    that asks for nothing reads what the player reads on the site and in their email."""
    if request.META.get("HTTP_ACCEPT_LANGUAGE"):
        return
    language = getattr(user, "language", None)
    if language in {code for code, _name in settings.LANGUAGES}:
        translation.activate(language)
        request.LANGUAGE_CODE = language


class TokenAuthentication(knox_auth.TokenAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, AuthToken] | None:
        """knox's, then the reader's language (:func:`speak_to`)."""
        found = super().authenticate(request)
        if found is not None:
            speak_to(request, found[0])
        return found

    def authenticate_credentials(self, token: bytes) -> tuple[Any, AuthToken]:
        """knox's, with the query above."""
        msg = _("Invalid token.")
        # A token is hex; anything else (bytes that are not UTF-8, a NUL that PostgreSQL
        # would refuse in a query) cannot be one and is refused before any query.
        if not token.isascii() or not token.isalnum():
            raise exceptions.AuthenticationFailed(msg)
        text = token.decode("ascii")
        for auth_token in tokens_with_user(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed(msg) from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(msg)

    def _cleanup_token(self, auth_token: AuthToken) -> bool:
        """True (and the token deleted) when ``auth_token`` itself has expired."""
        if auth_token.expiry is None or auth_token.expiry >= timezone.now():
            return False
        username = auth_token.user.get_username()
        auth_token.delete()
        token_expired.send(sender=type(self), username=username, source="auth_token")
        return True


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's, whose refused CSRF check says why in the reader's language (DRF's own
    message is English: "CSRF Failed: " and Django's reason)."""

    def enforce_csrf(self, request: Any) -> None:
        check = CSRFCheck(lambda request: None)  # type: ignore[arg-type]
        check.process_request(request)  # (reads the cookie into request.META)
        reason = check.process_view(request, None, (), {})  # type: ignore[arg-type]
        if reason:
            raise exceptions.PermissionDenied(csrf_refusal(str(reason)))


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of :class:`TokenAuthentication` (knox's)."""

    target_class = "lords.api.auth.TokenAuthentication"


class SessionScheme(SpectacularSessionScheme):
    """The OpenAPI security scheme of :class:`SessionAuthentication` (DRF's cookie)."""

    target_class = "lords.api.auth.SessionAuthentication"
