"""The base of every viewset: token (one query) or session authentication, and the one way
an endpoint reads its validated input."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers, viewsets
from rest_framework.authentication import BasicAuthentication

from lords.api.auth import SessionAuthentication, TokenAuthentication
from lords.api.strict import checked

AUTHENTICATION = (TokenAuthentication, SessionAuthentication)
"""The same as the settings' defaults, with the one-query token check."""

TOKEN_CREATION = (BasicAuthentication, SessionAuthentication, TokenAuthentication)
"""Creating a token also accepts an email and password (HTTP Basic)."""


# A plain ``ViewSet``: the actions read their objects through :mod:`games.api.lookups` (the
# platform's visibility rule), not through a queryset and ``get_object``. (A comment: the
# schema would show a docstring as the description of every operation.)
class ApiViewSet(viewsets.ViewSet):
    authentication_classes = AUTHENTICATION


def valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """The validated input (a body or the query parameters), or a 400 in the one shape;
    strict about types (:mod:`lords.api.strict`)."""
    if not isinstance(data, dict):
        raise exceptions.ParseError(_("The body must be a JSON object."))
    serializer = serializer_class(data=data)
    checked(serializer)
    validated: dict[str, Any] = serializer.validated_data
    return validated
