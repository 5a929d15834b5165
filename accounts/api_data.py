"""REST doors for the person's data: ``GET /api/v1/profile/data/`` (everything kept about
me, the same document as the settings page's download) and ``DELETE /api/v1/profile/`` with
the password (delete my account: ``accounts.deletion``). Mounted by ``accounts/api_urls.py``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import data, deletion
from accounts.api import TokenCreateThrottle
from accounts.models import User
from lords.api.base import AUTHENTICATION
from lords.api.schema import errors
from lords.api.strict import checked
from lords.api.throttling import AnonRateThrottle, UserRateThrottle


def _me(request: Request) -> User:
    """The signed-in user (every view here requires one)."""
    assert isinstance(request.user, User)
    return request.user


class PersonalDataView(APIView):
    """``GET /api/v1/profile/data/``."""

    authentication_classes = AUTHENTICATION

    @extend_schema(
        operation_id="profile_data",
        summary="Everything kept about me (download my data)",
        description=(
            "Profile, games (a finished game's record; a game under way as my seat sees "
            "it), emails sent to me, email choices, API tokens (never their secrets), "
            "invitations, trade offers and leagues. Served as a file to save."
        ),
        responses={200: OpenApiTypes.OBJECT, **errors(401)},
        tags=["account"],
    )
    def get(self, request: Request) -> Response:
        user = _me(request)
        response = Response(data.personal_data(user=user))
        response["Content-Disposition"] = f'attachment; filename="{data.filename(user)}"'
        response["Cache-Control"] = "no-store"
        return response


class DeleteAccountSerializer(serializers.Serializer[Any]):
    password = serializers.CharField(
        trim_whitespace=False, help_text="Your password: deleting cannot be undone."
    )

    def validate_password(self, value: str) -> str:
        from accounts.lockout import SignInLocked, password_confirms, seconds_left

        user, request = self.context["user"], self.context["request"]
        if not password_confirms(request, user, value):
            if getattr(request, "axes_locked_out", False):
                raise SignInLocked(seconds_left(request))
            raise serializers.ValidationError(
                _("That is not your password: the account is not deleted.")
            )
        return value


class AccountView(APIView):
    """``DELETE /api/v1/profile/``."""

    authentication_classes = AUTHENTICATION
    throttle_classes = (AnonRateThrottle, UserRateThrottle, TokenCreateThrottle)

    @extend_schema(
        operation_id="profile_delete",
        summary="Delete my account",
        description=(
            "With your password in the body. Games under way are resigned (a bot plays "
            "on), games not started are left, finished games stay under 'former player'; "
            "your tokens are revoked, no email is sent any more, you can no longer sign in "
            "and your address is free to sign up again."
        ),
        request=DeleteAccountSerializer,
        responses={204: OpenApiResponse(description="Deleted."), **errors(400, 401, 429)},
        tags=["account"],
    )
    def delete(self, request: Request) -> Response:
        user = _me(request)
        serializer = DeleteAccountSerializer(
            data=request.data, context={"user": user, "request": request._request}
        )
        checked(serializer)
        deletion.delete_account(user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)
