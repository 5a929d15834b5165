"""``GET /api/v1/events/``: the player's events as server-sent events (SSE), resumable.

Each event is ``id: <n>`` (a :class:`~games.models.PlayerEvent` id), ``event: <kind>``
(``move``, ``your_turn``) and ``data: <json>``. A client that reconnects sends the last id it
read as the ``Last-Event-ID`` header (browsers' EventSource do it themselves) and gets
everything after it, nothing twice. A stream holds a server thread (the image runs
gunicorn's gthread workers, 3 processes x 8 threads), so it ends after
``EVENT_STREAM_SECONDS`` (25) or ``EVENT_STREAM_MAX_EVENTS`` (100) events
with a ``retry:`` hint, and the client reconnects with ``Last-Event-ID``: nothing is lost
in between (docs/api.md, docs/decisions/0018-clocks-and-channels.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games.events import events_after, newest_id
from games.models import PlayerEvent
from lords.api.base import AUTHENTICATION
from lords.api.renderers import JSONRenderer
from lords.api.schema import errors

POLL_SECONDS = 1.0
KEEPALIVE_SECONDS = 15.0
RETRY_MS = 1000


class EventStreamRenderer(BaseRenderer):
    """Lets DRF's content negotiation accept ``Accept: text/event-stream``."""

    media_type = "text/event-stream"
    format = "sse"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> Any:
        return json.dumps(data).encode() if data is not None else b""


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def frame(event: PlayerEvent) -> str:
    """One event in the SSE wire format."""
    data = json.dumps({"id": event.pk, "kind": event.kind, **event.data}, separators=(",", ":"))
    return f"id: {event.pk}\nevent: {event.kind}\ndata: {data}\n\n"


def _last_id(request: Request) -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.query_params.get("last_event_id")
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 18:
        message = gettext("a whole number: the id of the last event read")
        raise ValidationError({"last_event_id": message})
    return int(raw)


def _seconds(request: Request) -> float:
    """How long this stream lasts: ``?seconds=`` (a client that only waits a while, so it
    never leaves a stream running behind it), at most ``EVENT_STREAM_SECONDS``."""
    most = _setting("EVENT_STREAM_SECONDS", 25)
    raw = request.query_params.get("seconds")
    if raw is None:
        return most
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 3600:
        raise ValidationError({"seconds": gettext("a number of seconds above 0")})
    return min(seconds, most)


def _stream(user: Any, last: int, seconds: float) -> Iterator[str]:
    """Events after ``last`` as they come, until the stream's time or count runs out."""
    ends = time.monotonic() + seconds
    most = int(_setting("EVENT_STREAM_MAX_EVENTS", 100))
    sent, quiet_since = 0, time.monotonic()
    yield f"retry: {RETRY_MS}\n\n"
    while time.monotonic() < ends and sent < most:
        batch = events_after(user, last, most - sent)
        for event in batch:
            yield frame(event)
            last, sent = event.pk, sent + 1
        if batch:
            quiet_since = time.monotonic()
            continue
        if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
            yield ": keep-alive\n\n"
            quiet_since = time.monotonic()
        pause = _setting("EVENT_STREAM_POLL_SECONDS", POLL_SECONDS)
        time.sleep(max(0.0, min(pause, ends - time.monotonic())))


class EventStreamView(APIView):
    authentication_classes = AUTHENTICATION
    renderer_classes = [JSONRenderer, EventStreamRenderer]  # (JSON: the errors)

    @extend_schema(
        operation_id="events_stream",
        summary="Your events as server-sent events, resumable with Last-Event-ID",
        parameters=[
            OpenApiParameter(
                "last_event_id",
                {"type": "integer", "minimum": 0},
                description="Instead of the Last-Event-ID header: the id of the last event "
                "read (0: from the first kept). Without either: only new events.",
            ),
            OpenApiParameter(
                "seconds",
                float,
                description="End the stream after this long (at most the server's 25 s).",
            ),
            # (Not DRF's ``?format=``, which the two renderers made the schema offer as
            # json|sse: the stream is server-sent events whatever it says, decision 0039.)
            OpenApiParameter("format", exclude=True),
        ],
        responses={
            200: OpenApiResponse(OpenApiTypes.STR, description="text/event-stream"),
            **errors(400),  # (a Last-Event-ID, last_event_id or seconds that is not one)
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        last, seconds = _last_id(request), _seconds(request)
        if last is None:
            last = newest_id(request.user)
        response = StreamingHttpResponse(
            _stream(request.user, last, seconds), content_type="text/event-stream; charset=utf-8"
        )
        response["Cache-Control"] = "no-store"
        response["X-Accel-Buffering"] = "no"  # a proxy must pass each event at once
        return response
