"""The API's JSON, its only kind of answer (:class:`ContentNegotiation`): DRF's, and what
the engines say (:class:`~games.engines.text.Text`) as a string in the reader's language,
as Django's lazy strings are.

The bytes are made by orjson (issue #15: DRF's ``json.dumps`` with its encoder class was a
tenth of a move's answer), to DRF's compact UTF-8 text: dates and times, dataclasses and
anything orjson does not know go through DRF's encoder, and U+2028/U+2029 are escaped as
DRF escapes them. What orjson refuses (an integer beyond 64 bits, a nesting deeper than 254
levels) and an indented answer (``indent`` in the media type) are rendered by DRF itself.
What differs, none of it in any answer of the API: a float may be written otherwise
(``1e-7`` for ``1e-07``: the same number), a float that is not a number comes out as
``null`` where DRF (``STRICT_JSON``) raises, and a plain ``Enum`` (as its value) or a UUID,
an ``Enum`` or a date as a key is written where DRF raised."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.renderers import JSONRenderer as DrfJSONRenderer
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder as DrfJSONEncoder

from games.engines.text import Join, Text

OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


class JSONEncoder(DrfJSONEncoder):
    def default(self, obj: Any) -> Any:
        if isinstance(obj, Text | Join):
            return str(obj)
        return super().default(obj)


_default = JSONEncoder().default  # (keeps no state: one for every thread)


class JSONRenderer(DrfJSONRenderer):
    encoder_class = JSONEncoder

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        indent = self.get_indent(accepted_media_type or "", renderer_context or {})
        if data is None or indent is not None or self.ensure_ascii or not self.compact:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=_default, option=OPTIONS)
        except orjson.JSONEncodeError:
            return super().render(data, accepted_media_type, renderer_context)
        return out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")


class ContentNegotiation(DefaultContentNegotiation):
    """DRF's, answering what the view writes first (JSON) where DRF gave up: an ``Accept``
    that names no type the view writes (``text/html``: 406 before) and a ``?format=`` that
    names none (``xml``: 404 "Not found.", which hid the real answer). Every answer under
    ``/api/`` is JSON (docs/decisions/0025); a view that writes more than JSON (the event
    stream, the schema's ``?format=json``) is still chosen among as DRF does."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        offered = list(renderers)
        try:
            chosen: tuple[BaseRenderer, str] = super().select_renderer(
                request, offered, format_suffix
            )
        except (NotAcceptable, Http404):
            return offered[0], offered[0].media_type
        return chosen
