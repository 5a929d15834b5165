"""One JSON shape for every API error (filled in by the platform core)."""

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    return drf_exception_handler(exc, context)
