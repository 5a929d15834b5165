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
* DRF's exceptions (validation, parse errors, a body nested too deep, authentication,
  permission, 404, throttling, method not allowed...), Django's ``Http404``/``PermissionDenied``
  and its ``RequestDataTooBig`` (a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413);
* anything else is a bug: logged with its traceback and answered as a 500 in the same shape,
  without internals.

What Django answers itself under ``/api/``, outside DRF's views (an address that matches no
route, a refused CSRF check, an error in a middleware), takes the same shape through the
handlers at the end of this module (``lords/urls.py``, ``CSRF_FAILURE_VIEW``); elsewhere they
answer with Django's views, which draw the site's own pages (``templates/404.html``,
``403_csrf.html``, ``500.html``: in the reader's language, with the site's navigation).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

import games.engines
from games.engines.base import IllegalCommand, InvalidOptions, MalformedCommand
from games.services.errors import ServiceError
from lords.api.csrf import csrf_refusal

log = logging.getLogger(__name__)

_ENGINES = str(Path(games.engines.__file__).resolve().parent)
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

_MESSAGES: dict[str, Any] = {
    "not_authenticated": gettext_lazy(
        "Authentication is required: send 'Authorization: Token <your API token>' "
        "(create one at /api/v1/tokens/)."
    ),
}
"""Messages of our own for some codes, in the reader's language (lazy: said when sent)."""


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


def _listed(detail: Any) -> Any:
    """Each field's errors as a list of strings, however the view raised them: a view that
    raised ``ValidationError({"url": "..."})`` gave a bare string where every other field
    had a list (``Last-Event-ID: abc``: found by a bot's author, decision 0039). Nested
    objects keep their shape, by field name or list index."""
    if isinstance(detail, Mapping):
        return {key: _listed(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_listed(item) if isinstance(item, Mapping | list) else item for item in detail]
    return [detail]


def _from_validation(exc: exceptions.ValidationError) -> Response:
    lines = _flatten(exc.detail)
    message = " ".join(lines) or _("The request is not valid.")
    fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    fields = _listed(fields)
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
    detail.update(getattr(exc, "extra", {}))  # e.g. the limit a body went over
    text = " ".join(_flatten(exc.detail))
    message = str(_MESSAGES.get(code, text))
    if isinstance(exc, exceptions.Throttled):
        seconds = int(wait or 1)
        message = ngettext(
            "Too many requests: try again in %(seconds)s second.",
            "Too many requests: try again in %(seconds)s seconds.",
            seconds,
        ) % {"seconds": seconds}
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
    if isinstance(exc, RequestDataTooBig):
        set_rollback()
        return error_response(*_too_large())
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
            _("The game could not make sense of this request; check the command's notation."),
            status.HTTP_400_BAD_REQUEST,
        )
    log.exception("unexpected error in %s", type(view).__name__ if view else "the API")
    set_rollback()
    return error_response("server_error", str(_SERVER_ERROR), status.HTTP_500_INTERNAL_SERVER_ERROR)


_SERVER_ERROR = gettext_lazy("Something went wrong on our side. Please try again later.")


def _too_large() -> tuple[str, str, int, dict[str, Any]]:
    """The 413 (code, message, status, detail): the body is over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (files aside), the limit named, its digits grouped the
    reader's way ("2,621,440" is English; French writes "2 621 440")."""
    limit: int = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    grouped = number_format(limit, force_grouping=True)
    message = _("The request body is too large: at most %(limit)s bytes.") % {"limit": grouped}
    return "too_large", message, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, {"max_bytes": limit}


# -- what Django answers itself under /api/ -------------------------------------------------


def _json_error(
    code: str, message: str, status_code: int, detail: Mapping[str, Any] | None = None
) -> JsonResponse:
    return JsonResponse(error_body(code, message, detail), status=status_code)


def _in_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


@csrf_exempt  # it changes nothing: a POST to no address is a 404, not a CSRF failure
def not_found_view(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown addresses under ``/api/``: the same 404 shape as a missing object, in the
    caller's language (no view ran to read their token: found by fuzzing)."""
    _speak_to_the_token(request)
    message = _("There is no API endpoint at %(path)s.") % {"path": request.path}
    if not request.path.endswith("/"):
        message += " " + _("Addresses of the API end with a slash.")
    return _json_error("not_found", message, status.HTTP_404_NOT_FOUND)


def _speak_to_the_token(request: HttpRequest) -> None:
    """Answer a script in its player's saved language, as the views do
    (``lords.api.auth.speak_to``): its token says who it is; a bad one says nothing."""
    from lords.api.auth import TokenAuthentication  # (it imports the views' parts)

    with suppress(exceptions.APIException):
        TokenAuthentication().authenticate(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a request Django refused before any view (e.g. a body over the size
    limit read by a middleware)."""
    if not _in_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return _json_error(*_too_large())
    return _json_error("malformed_request", _("The request could not be read."), 400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``."""
    if not _in_api(request):
        return defaults.permission_denied(request, exception)
    message = _("You do not have permission to perform this action.")
    return _json_error("permission_denied", message, status.HTTP_403_FORBIDDEN)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: an address under ``/api/`` outside ``/api/v1/``; elsewhere Django's
    view, which draws ``404.html`` with the request (the reader's language and menu)."""
    if not _in_api(request):
        return defaults.page_not_found(request, exception)
    return not_found_view(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an exception outside DRF's views (DRF's own are answered above);
    elsewhere Django's view, which draws ``500.html`` with no context: nothing that could
    need the database, whose failure this may be."""
    if not _in_api(request):
        return defaults.server_error(request)
    return _json_error("server_error", str(_SERVER_ERROR), status.HTTP_500_INTERNAL_SERVER_ERROR)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the CSRF check of a plain Django view under ``/api/`` (DRF's
    views check it themselves for session callers and answer with ``permission_denied``).
    Elsewhere a page of the site with the request (Django's view drew its own English page,
    ``lang="en"``, without the site's menu), saying whether the cookie was missing."""
    if not _in_api(request):
        missing_cookie = reason == REASON_NO_CSRF_COOKIE
        return render(
            request, csrf.CSRF_FAILURE_TEMPLATE_NAME, {"no_cookie": missing_cookie}, status=403
        )
    return _json_error("permission_denied", csrf_refusal(reason), status.HTTP_403_FORBIDDEN)
