"""The base of every game viewset: token (one query) or session authentication."""

from __future__ import annotations

from rest_framework import viewsets
from rest_framework.authentication import BasicAuthentication, SessionAuthentication

from games.api.auth import TokenAuthentication

AUTHENTICATION = (TokenAuthentication, SessionAuthentication)
"""The same as the settings' defaults, with the one-query token check."""

TOKEN_CREATION = (BasicAuthentication, SessionAuthentication, TokenAuthentication)
"""Creating a token also accepts an email and password (HTTP Basic)."""


# A plain ``ViewSet``: the actions read their objects through :mod:`games.api.lookups` (the
# platform's visibility rule), not through a queryset and ``get_object``. (A comment: the
# schema would show a docstring as the description of every operation.)
class ApiViewSet(viewsets.ViewSet):
    authentication_classes = AUTHENTICATION
