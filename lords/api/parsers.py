"""DRF's JSON parser with a limit on nesting (``API_MAX_JSON_DEPTH``).

No request of the API needs more than a few levels (a list of commands, each an object
holding at most a list or an object). Python's decoder gives up near a thousand levels with
a ``RecursionError`` (a 500 before this parser), and anything deep but below that costs
every later reader (serializers, the engine, the log) a walk of its own. So a body nested
deeper than the limit is refused here, with the limit in the message, before anything else
looks at it. The size of a body is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, checked when
the body is read (a 413 in :mod:`lords.api.errors`).
"""

from __future__ import annotations

import codecs
import io
import json as stdlib_json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.request import Request
from rest_framework.utils import json


class TooDeep(APIException):
    """A JSON body nested deeper than the limit (400, ``detail.max_depth``)."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "too_deep"

    def __init__(self, limit: int) -> None:
        message = _(
            "The JSON body is nested too deep: at most %(limit)s levels of lists and objects."
        ) % {"limit": limit}
        super().__init__(message, self.default_code)
        self.extra = {"max_depth": limit}


def depth(value: Any) -> int:
    """Levels of lists and objects in a decoded JSON value (a scalar: 0). A walk with its own
    stack, so that it cannot itself run out of recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level + 1)
        stack.extend((child, level + 1) for child in children)
    return deepest


def not_json(exc: ValueError, encoding: str) -> str:
    """Why a body is refused, in the reader's language (DRF's "JSON parse error - ..." is
    English, as are Python's words for where it breaks): where the JSON breaks, or that its
    bytes are not text in its charset."""
    if isinstance(exc, stdlib_json.JSONDecodeError):
        return _("The body is not JSON: it breaks at line %(line)s, column %(column)s.") % {
            "line": exc.lineno,
            "column": exc.colno,
        }
    if isinstance(exc, UnicodeError):  # (UTF-16 without a BOM is one, not a decode error)
        return _("The body is not text in %(charset)s.") % {"charset": encoding}
    return _("The body is not JSON: NaN and Infinity are not numbers in JSON.")


class JSONParser(parsers.JSONParser):
    """DRF's, refusing a body nested deeper than ``API_MAX_JSON_DEPTH``. It reads as DRF's
    does (the charset DRF accepts, its decoding, its strict numbers; its refusal, said in
    the reader's language: :func:`not_json`); the depth
    is walked only when the body has more opening brackets than the limit (each level takes
    one), which a move's body never has (issue #15)."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit: int = settings.API_MAX_JSON_DEPTH
        # (DRF's charset, text codecs only; newer than its type stubs)
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        try:
            text = codecs.getreader(encoding)(stream).read()  # (as DRF decodes it)
            data = json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except RecursionError:
            raise TooDeep(limit) from None
        except ValueError as exc:  # (a JSON error, or bytes not in the charset)
            raise ParseError(not_json(exc, encoding)) from None
        if text.count("[") + text.count("{") > limit and depth(data) > limit:
            raise TooDeep(limit)
        return data


def json_body(request: Request) -> Any:
    """``request.data`` for a view whose clients send JSON: a body whose type is exactly
    ``application/json`` and whose length is above 0 is read from Django's request (which
    checks ``DATA_UPLOAD_MAX_MEMORY_SIZE`` as DRF's reading does) and parsed by
    :class:`JSONParser` itself with DRF's parser context, as DRF would parse it, without
    DRF's way there (choosing a parser among three, a stream around the body, asking
    whether it is a form: a thirtieth of a move's CPU, issue #15). Any other request (a
    charset, another type, an empty body) goes DRF's way. The refusals are DRF's and this
    parser's: a body too large, of another type than JSON (415), not JSON, too deep. (What
    is read is not kept on the request: nothing after the caller reads ``request.data``.)"""
    django_request = request._request
    meta = django_request.META
    if meta.get("CONTENT_TYPE") != "application/json" or _length(meta) <= 0:
        return request.data
    stream = io.BytesIO(django_request.body)
    return JSONParser().parse(stream, "application/json", request.parser_context)


def _length(meta: Mapping[str, Any]) -> int:
    """The body's length as DRF reads it (0 when the header is missing or not a number)."""
    try:
        return int(meta.get("CONTENT_LENGTH", meta.get("HTTP_CONTENT_LENGTH", 0)))
    except (ValueError, TypeError):
        return 0
