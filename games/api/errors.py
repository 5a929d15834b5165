"""One JSON shape for every API error, and the one DRF exception handler that makes it.

Every error the API answers looks like::

    {"error": {"code": "not_your_turn", "message": "It is Red's turn, not yours.",
               "detail": {...}}}

``code`` is stable and meant for programs, ``message`` is a sentence for a person and
``detail`` carries whatever else helps (the current version of a stale submission, the field
errors of a validation failure, the seconds to wait when throttled).

Sources, in the order the handler checks them:

* :class:`games.services.errors.ServiceError` (platform rules: not your turn, stale version...)
  with its own ``code``, ``message``, ``status`` and ``extra``;
* engine errors that escaped a service (``IllegalCommand``/``MalformedCommand``/
  ``InvalidOptions``): bad input, so a 400, never a 500;
* DRF's exceptions (validation, parse errors, authentication, permission, 404, throttling,
  method not allowed...) and Django's ``Http404``/``PermissionDenied``;
* anything else is a bug: logged with its traceback and answered as a 500 in the same shape,
  without internals.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.engines.base import IllegalCommand, InvalidOptions, MalformedCommand
from games.services.errors import ServiceError

log = logging.getLogger(__name__)

_ENGINES = str(Path(__file__).resolve().parents[1] / "engines")
_ENGINE_SLIPS = (TypeError, ValueError, LookupError, AttributeError, ArithmeticError)


def _raised_in_an_engine(exc: Exception) -> bool:
    """The innermost frame of the traceback is engine code: the engine tripped over input
    it did not expect (its bug, but for the caller the command could not be read)."""
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return last is not None and last.startswith(_ENGINES)


def error_body(code: str, message: str, detail: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The one error shape."""
    return {"error": {"code": code, "message": message, "detail": dict(detail or {})}}


def error_response(
    code: str,
    message: str,
    status_code: int,
    detail: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    return Response(
        error_body(code, message, detail), status=status_code, headers=dict(headers or {})
    )


# -- DRF exceptions -------------------------------------------------------------------------

_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ParseError: "malformed_request",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
}

_MESSAGES: dict[str, str] = {
    "not_authenticated": (
        "Authentication is required: send 'Authorization: Token <your API token>' "
        "(create one at /api/v1/tokens/)."
    ),
}


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    """``{"seats": ["Ensure this value is less than or equal to 6."]}`` ->
    ``["seats: Ensure this value is less than or equal to 6."]``."""
    if isinstance(detail, Mapping):
        out: list[str] = []
        for key, value in detail.items():
            name = str(key) if key != "non_field_errors" else ""
            out.extend(_flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list):
        return [line for item in detail for line in _flatten(item, prefix)]
    text = str(detail)
    return [f"{prefix}: {text}" if prefix else text]


def _from_validation(exc: exceptions.ValidationError) -> Response:
    lines = _flatten(exc.detail)
    message = " ".join(lines) or "The request is not valid."
    fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    return error_response("invalid", message, status.HTTP_400_BAD_REQUEST, {"fields": fields})


def _from_api_exception(exc: exceptions.APIException) -> Response:
    if isinstance(exc, exceptions.ValidationError):
        return _from_validation(exc)
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), None)
    if code is None:
        default = exc.get_codes()
        code = default if isinstance(default, str) else "error"
    headers: dict[str, str] = {}
    detail: dict[str, Any] = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = str(exc.auth_header)  # type: ignore[attr-defined]
    wait = getattr(exc, "wait", None)
    if wait:
        headers["Retry-After"] = f"{int(wait)}"
        detail["retry_after"] = int(wait)
    text = " ".join(_flatten(exc.detail))
    message = _MESSAGES.get(code, text)
    if isinstance(exc, exceptions.Throttled):
        message = f"Too many requests: try again in {int(wait or 1)} seconds."
    return error_response(code, message, exc.status_code, detail, headers)


# -- the handler ----------------------------------------------------------------------------


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's ``EXCEPTION_HANDLER``: every exception becomes the one error shape."""
    if isinstance(exc, ServiceError):
        set_rollback()
        return error_response(exc.code, exc.message, exc.status, exc.extra)
    if isinstance(exc, InvalidOptions):
        set_rollback()
        return error_response("invalid_options", str(exc), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, MalformedCommand):
        set_rollback()
        return error_response("malformed_command", str(exc), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, IllegalCommand):
        set_rollback()
        return error_response("illegal_command", str(exc), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if isinstance(exc, exceptions.APIException):
        set_rollback()
        return _from_api_exception(exc)
    view = context.get("view")
    if isinstance(exc, _ENGINE_SLIPS) and _raised_in_an_engine(exc):
        log.error("the engine failed on a request to %s", type(view).__name__, exc_info=exc)
        set_rollback()
        return error_response(
            "unreadable_command",
            "The game could not make sense of this request; check the command's notation.",
            status.HTTP_400_BAD_REQUEST,
        )
    log.exception("unexpected error in %s", type(view).__name__ if view else "the API")
    set_rollback()
    return error_response(
        "server_error",
        "Something went wrong on our side. Please try again later.",
        status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def not_found_view(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown addresses under ``/api/``: the same 404 shape as a missing object."""
    message = f"There is no API endpoint at {request.path}."
    if not request.path.endswith("/"):
        message += " Addresses of the API end with a slash."
    body = error_body("not_found", message)
    return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
