"""The base of every API view: token (one query) or session authentication."""

from __future__ import annotations

from rest_framework.authentication import BasicAuthentication, SessionAuthentication
from rest_framework.views import APIView

from games.api.auth import TokenAuthentication

AUTHENTICATION = (TokenAuthentication, SessionAuthentication)
"""The same as the settings' defaults, with the one-query token check."""

TOKEN_CREATION = (BasicAuthentication, SessionAuthentication, TokenAuthentication)
"""Creating a token also accepts an email and password (HTTP Basic)."""


class ApiView(APIView):
    authentication_classes = AUTHENTICATION
