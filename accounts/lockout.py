"""One lockout policy for every door that checks a password (docs/decisions/0007).

django-axes counts the failed sign-ins: its authentication backend comes first, so every
``django.contrib.auth.authenticate`` call (allauth's web sign-in, HTTP Basic at the token
endpoint, the admin's sign-in) is refused while the account or the address is locked, and
its ``user_login_failed`` receiver records each failure per account and per address.
This module gives axes what is ours:

* ``account_of``: the account a sign-in names, the email lower-cased, whichever door
  (allauth and DRF pass ``email``, the admin's form ``username``);
* ``locked_out_response``: what a locked-out person sees on a page (429, ``Retry-After``,
  a sentence), or in the API's error shape under ``/api/``;
* ``SignInBasicAuthentication``: DRF's HTTP Basic, answering 429 in the API's error shape
  when axes refused (DRF's own request object hides the flag from axes' middleware);
* ``LockoutHandler``: axes' database handler, storing headers PostgreSQL can store.
"""

from __future__ import annotations

import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext
from drf_spectacular.authentication import BasicScheme
from rest_framework import exceptions, status
from rest_framework.authentication import BasicAuthentication
from rest_framework.request import Request

from accounts.models import User
from lords.api.errors import error_body

_ACCOUNT_FIELDS = ("email", "username", "login")
_EMAIL_LENGTH: int = User._meta.get_field("email").max_length or 0
_KEPT_HEADERS = ("axes_user_agent", "axes_http_accept", "axes_path_info")


def account_of(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the email a sign-in names, lower-cased and trimmed, so
    that ``Ada@Example.org`` and ``ada@example.org`` are counted as one account."""
    for field in _ACCOUNT_FIELDS:
        value = (credentials or {}).get(field)
        if isinstance(value, str) and value.strip():
            return value.strip().lower()
    return None


def seconds_left(request: Any, credentials: dict[str, Any] | None = None) -> int:
    """How long until the lock lifts: the newest failure counted for the account or the
    address, plus the lockout time (a failure while locked is not counted and does not
    extend it: ``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` is off). At least 1."""
    cool_off = get_cool_off(request) or settings.AXES_COOLOFF_TIME
    account = account_of(request, credentials)
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    matching = Q(ip_address=address) if address else Q(pk__in=[])
    if account:
        matching |= Q(username=account)
    newest = AccessAttempt.objects.filter(matching).aggregate(newest=Max("attempt_time"))
    if newest["newest"] is None:
        return 1
    left = (newest["newest"] + cool_off - timezone.now()).total_seconds()
    return max(1, math.ceil(left))


def locked_message(seconds: int) -> str:
    """The sentence every door shows, in the reader's language."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed sign-ins for this account or from this address: signing in is "
        "blocked for %(minutes)s more minute, even with the right password.",
        "Too many failed sign-ins for this account or from this address: signing in is "
        "blocked for %(minutes)s more minutes, even with the right password.",
        minutes,
    ) % {"minutes": minutes}


def locked_out_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: 429 with ``Retry-After``: a page for people, the API's
    error shape under ``/api/``."""
    seconds = seconds_left(request, credentials)
    message = locked_message(seconds)
    response: HttpResponse
    if request.path.startswith("/api/"):
        body = error_body("locked_out", message, {"retry_after": seconds})
        response = JsonResponse(body, status=status.HTTP_429_TOO_MANY_REQUESTS)
    else:
        context = {"message": message, "seconds": seconds}
        response = render(request, "accounts/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


class SignInLocked(exceptions.APIException):
    """The API's answer to a sign-in while locked out (``lords.api.errors`` shapes it and
    sets ``Retry-After`` from ``wait``)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self, seconds: int) -> None:
        super().__init__(locked_message(seconds), code="locked_out")
        self.wait = seconds


class SignInBasicAuthentication(BasicAuthentication):
    """DRF's HTTP Basic (email and password) under the one lockout policy: while the account
    or the address is locked, 429 with ``Retry-After``, even for the right password."""

    def authenticate_credentials(
        self, userid: str, password: str, request: Request | None = None
    ) -> tuple[Any, None]:
        """DRF's, refusing first a name no account can have: one with a NUL (PostgreSQL
        refuses it in a query) or longer than an email may be (axes could not store it):
        both were a 500 (found by fuzzing). No password is checked, so nothing is counted."""
        if "\0" in userid or len(userid) > _EMAIL_LENGTH:
            raise exceptions.AuthenticationFailed  # (DRF's words, in DRF's catalogs)
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            if request is not None and getattr(request, "axes_locked_out", False):
                raise SignInLocked(seconds_left(request, {"email": userid})) from None
            raise


class SignInBasicScheme(BasicScheme):
    """The OpenAPI security scheme of :class:`SignInBasicAuthentication` (HTTP Basic)."""

    target_class = "accounts.lockout.SignInBasicAuthentication"


def password_confirms(request: HttpRequest, user: Any, password: str) -> bool:
    """Whether ``password`` is ``user``'s, checked as a sign-in is: through
    ``authenticate``, so a guess here is counted by the lockout like any other, and a
    locked account is refused even the right password (``request.axes_locked_out``
    tells the caller which)."""
    from django.contrib.auth import authenticate

    signed = authenticate(request, email=user.email, password=password)
    return signed is not None and signed.pk == user.pk


class LockoutHandler(AxesDatabaseHandler):
    """``AXES_HANDLER``: axes' database handler, keeping the request's User-Agent, Accept and
    path with any NUL as U+FFFD. axes stores them as they came (it replaces NUL only in the
    query and the form), and PostgreSQL refuses a NUL in text: a guess whose header held
    one was a 500, never counted, so it was never locked out (found by fuzzing). One
    character for one keeps axes' length limits (it cuts them to its columns first)."""

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        _storable(request)
        super().user_login_failed(sender, credentials, request, **kwargs)

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        _storable(request)
        super().user_logged_in(sender, request, user, **kwargs)

    def user_logged_out(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        _storable(request)
        super().user_logged_out(sender, request, user, **kwargs)


def _storable(request: Any) -> None:
    """The headers axes read into ``request`` (its proxy's ``update_request``), without NUL."""
    for name in _KEPT_HEADERS:
        value = getattr(request, name, None)
        if isinstance(value, str) and "\0" in value:
            setattr(request, name, value.replace("\0", "\ufffd"))
