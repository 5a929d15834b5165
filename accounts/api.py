"""REST doors for the account: my profile and my personal API tokens.

Tokens are django-rest-knox tokens: several per user, stored as a SHA-512 digest (the token
itself is shown once, in the answer that creates it), revocable one by one or all at once.
A token is created by a caller authenticated by HTTP Basic (email + password), by the
browser session, or by another token; every other endpoint takes ``Authorization: Token
<token>`` or the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from knox.views import LoginView
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.addresses import verified_emails
from accounts.lockout import SignInBasicAuthentication
from accounts.models import MAX_AWAY_DAYS, User
from accounts.rules import (
    MAX_NAME_LENGTH,
    away_until_to_save,
    check_display_name,
    lost_the_name,
    name_taken,
    time_zones,
)
from lords.api.auth import SessionAuthentication, TokenAuthentication
from lords.api.base import AUTHENTICATION
from lords.api.schema import errors
from lords.api.strict import checked
from lords.api.throttling import AnonRateThrottle, UserRateThrottle


@dataclass(frozen=True)
class ProfilePart:
    """A part of the profile another app keeps (notifications: the email choices), read
    and written under its own name in ``/api/v1/me/``. ``zone_changed`` is told when the
    player's time zone changes (after it is saved, in the same transaction): the part may
    keep moments in it (notifications: the next digest)."""

    serializer: Callable[[], serializers.Field[Any, Any, Any, Any]]
    read: Callable[[User], dict[str, Any]]
    save: Callable[[User, dict[str, Any]], None]
    zone_changed: Callable[[User], None] | None = None


PROFILE_PARTS: dict[str, ProfilePart] = {}
"""Registered by the apps in their ``AppConfig.ready``: accounts knows none of the apps built
on it, and the games' API, which routes ``/me/``, stays clear of them (import-linter)."""


class ZonedDateTimeField(serializers.DateTimeField):
    """A moment as the API takes it: a date and time with its zone (``Z`` or an offset).
    One without it is refused with a message saying so: read as UTC, it put a vacation's
    end hours away from the one meant (found by play-testing)."""

    def to_internal_value(self, value: datetime | str) -> datetime:
        if isinstance(value, str) and _without_zone(value):
            raise serializers.ValidationError(
                gettext(
                    "%(value)s has no time zone: add one, for example 2030-08-01T09:00:00Z "
                    "(UTC) or 2030-08-01T11:00:00+02:00."
                )
                % {"value": value},
                code="invalid",
            )
        return super().to_internal_value(value)


def _without_zone(text: str) -> bool:
    """Whether ``text`` is a date and time (or a date) without a zone."""
    try:
        parsed = parse_datetime(text)
    except ValueError:  # (well formed, but no such day: the field's own message says so)
        return False
    return parsed is not None and timezone.is_naive(parsed)


class ProfileSerializer(serializers.ModelSerializer[User]):
    """What a player may read and change about themselves."""

    name = serializers.CharField(read_only=True, help_text="What other players see.")
    # No ``max_length`` here: ``accounts.rules.check_display_name`` says it, as the page does.
    display_name = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text=(
            f"At most {MAX_NAME_LENGTH} characters, trimmed; no control or invisible "
            "characters. Empty: the part of your email before the @."
        ),
    )
    time_zone = serializers.CharField(
        max_length=64, required=False, help_text="An IANA zone, e.g. Europe/Paris."
    )
    language = serializers.ChoiceField(
        choices=[code for code, _ in settings.LANGUAGES], required=False
    )
    away_until = ZonedDateTimeField(
        required=False,
        allow_null=True,
        help_text=(
            "Vacation: until then the games waiting on you push their deadline to your "
            f"return instead of timing you out (each within its vacation_days). At most "
            f"{MAX_AWAY_DAYS} days ahead, with a time zone, e.g. 2030-08-01T09:00:00Z; "
            "null ends the vacation."
        ),
    )

    class Meta:
        model = User
        fields = (
            "id",
            "email",
            "name",
            "display_name",
            "time_zone",
            "language",
            "away_until",
        )
        read_only_fields = ("id", "email", "name")

    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = super().get_fields()
        for name, part in PROFILE_PARTS.items():
            fields[name] = part.serializer()
        return fields

    def to_representation(self, instance: User) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        for name, part in PROFILE_PARTS.items():
            data[name] = part.read(instance)
        return data

    def update(self, instance: User, validated_data: dict[str, Any]) -> User:
        """The profile and the other apps' parts are saved together, or none is."""
        changes = {name: validated_data.pop(name, None) for name in PROFILE_PARTS}
        zone_moved = validated_data.get("time_zone", instance.time_zone) != instance.time_zone
        try:
            with transaction.atomic():
                user = super().update(instance, validated_data)
                for name, part in PROFILE_PARTS.items():
                    if changes[name]:
                        part.save(user, changes[name])
                    if zone_moved and part.zone_changed is not None:
                        part.zone_changed(user)
        except IntegrityError as exc:
            if not lost_the_name(exc):
                raise
            instance.refresh_from_db()
            refusal = name_taken(validated_data["display_name"])
            raise serializers.ValidationError({"display_name": refusal.messages}) from None
        return user

    def validate_display_name(self, value: str) -> str:
        try:
            return check_display_name(value, user=self.instance)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc

    def validate_away_until(self, value: datetime | None) -> datetime | None:
        saved = self.instance.away_until if self.instance else None
        try:
            return away_until_to_save(value, saved)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc

    def validate_time_zone(self, value: str) -> str:
        if value not in time_zones():
            raise serializers.ValidationError(
                gettext("%(value)r is not a time zone; use an IANA name such as 'Europe/Paris'.")
                % {"value": value}
            )
        return value


class TokenSerializer(serializers.Serializer[AuthToken]):
    """A token as listed: never the secret, only its first characters (``token_key``)."""

    token_key = serializers.CharField(help_text="The first characters of the token: its id.")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    current = serializers.SerializerMethodField(help_text="True for the token of this request.")

    def get_current(self, token: AuthToken) -> bool:
        auth = self.context.get("auth")
        return isinstance(auth, AuthToken) and auth.digest == token.digest


class NewTokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="The secret: shown once, keep it.")
    token_key = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True)


def _me(request: Request) -> User:
    """The signed-in user (every view here requires one)."""
    assert isinstance(request.user, User)
    return request.user


# ``GET``/``PATCH /api/v1/me/``. (A comment, not a docstring: the schema would show a
# docstring as the description of both operations.)
class ProfileView(APIView):
    authentication_classes = AUTHENTICATION

    @extend_schema(
        operation_id="me_retrieve",
        summary="My profile",
        responses={200: ProfileSerializer, **errors(401)},
        tags=["account"],
    )
    def get(self, request: Request) -> Response:
        return Response(ProfileSerializer(_me(request)).data)

    @extend_schema(
        operation_id="me_update",
        summary="Change my display name, time zone, language or vacation (away_until)",
        request=ProfileSerializer,
        responses={200: ProfileSerializer, **errors(400, 401)},
        tags=["account"],
    )
    def patch(self, request: Request) -> Response:
        serializer = ProfileSerializer(_me(request), data=request.data, partial=True)
        checked(serializer)
        serializer.save()
        return Response(serializer.data)


TOKEN_CREATION = (SignInBasicAuthentication, SessionAuthentication, TokenAuthentication)
"""Creating a token also accepts an email and password (HTTP Basic), under the sign-in
lockout (``accounts.lockout``: 429 while the account or the address is locked)."""


class AddressNotConfirmed(exceptions.APIException):
    """A token for an account none of whose addresses is confirmed: its sign-up's code was
    never typed (or it predates mandatory verification). The web's sign-in mails a code and
    asks for it; the API, which cannot, sends the person there (docs/decisions/0034). Only the
    account's password, session or token reach this answer, so it tells nobody else anything."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "email_unconfirmed"

    def __init__(self) -> None:
        message = gettext(
            "Confirm your email address first: sign in on the website and type the code "
            "we email you, then create a token."
        )
        super().__init__(message, code="email_unconfirmed")


class TokenCreateThrottle(AnonRateThrottle):
    """Password guessing through HTTP Basic is throttled per address, on top of the rest."""

    scope = "token_create"

    def get_rate(self) -> str:
        return str(settings.THROTTLE_TOKEN_CREATE)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenListCreateView(LoginView):
    """``GET``/``POST``/``DELETE /api/v1/tokens/``: list, create, revoke all."""

    authentication_classes = TOKEN_CREATION
    throttle_classes = (AnonRateThrottle, UserRateThrottle)

    def perform_authentication(self, request: Request) -> None:
        """A creation is throttled before its password is checked: DRF checks the
        throttles after authentication, which refuses a wrong password first, so guesses
        were never counted (found by fuzzing)."""
        if request.method == "POST":
            throttle = TokenCreateThrottle()
            if not throttle.allow_request(request, self):
                self.throttled(request, throttle.wait())
        super().perform_authentication(request)

    @extend_schema(
        operation_id="tokens_list",
        summary="My API tokens (without their secrets)",
        responses={200: TokenSerializer(many=True), **errors(401)},
        tags=["account"],
    )
    def get(self, request: Request) -> Response:
        tokens = AuthToken.objects.filter(user=request.user).order_by("created")
        context = {"auth": request.auth}
        return Response(TokenSerializer(tokens, many=True, context=context).data)

    @extend_schema(
        operation_id="tokens_create",
        summary="Create an API token",
        description=(
            "Authenticate with HTTP Basic (your email and password), your browser session or "
            "an existing token. The answer carries the token once; it is stored hashed. "
            "Failed sign-ins are counted per account and per address: past the limit, "
            "every sign-in of them answers 429 (code locked_out, with Retry-After) for a "
            "while, even with the right password. An account whose email address is not "
            "confirmed yet gets 403 (code email_unconfirmed): sign in on the website, which "
            "emails a code to type."
        ),
        request=None,
        responses={201: NewTokenSerializer, **errors(401, 403, 429)},
        tags=["account"],
    )
    def post(self, request: Request, format: str | None = None) -> Response:
        if not verified_emails(request.user):
            raise AddressNotConfirmed
        return super().post(request, format=format)

    def get_post_response(self, request: Request, token: str, instance: AuthToken) -> Response:
        data = {"token": token, "token_key": instance.token_key, "expiry": instance.expiry}
        return Response(NewTokenSerializer(data).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="tokens_revoke_all",
        summary="Revoke every token of mine",
        request=None,
        responses={204: OpenApiResponse(description="All revoked."), **errors(401)},
        tags=["account"],
    )
    def delete(self, request: Request) -> Response:
        AuthToken.objects.filter(user=request.user).delete()
        user_logged_out.send(sender=type(request.user), request=request, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenDetailView(APIView):
    """``DELETE /api/v1/tokens/<token_key>/``: revoke one token."""

    authentication_classes = TOKEN_CREATION

    @extend_schema(
        operation_id="tokens_revoke",
        summary="Revoke one of my tokens",
        request=None,
        responses={204: OpenApiResponse(description="Revoked."), **errors(401, 404)},
        tags=["account"],
    )
    def delete(self, request: Request, token_key: str) -> Response:
        # A key is hex: anything else (a NUL, which PostgreSQL refuses in a query) is none.
        could_be = token_key.isascii() and token_key.isalnum()
        tokens = AuthToken.objects.filter(user=request.user, token_key=token_key)
        if not could_be or not tokens.exists():
            message = gettext("You have no token '%(token)s'.") % {"token": token_key}
            raise exceptions.NotFound(message)
        tokens.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
