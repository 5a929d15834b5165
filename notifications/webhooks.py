"""The inbound webhook of the email door: anymail's Postmark view, except that a post it
cannot read is the provider's fault (or a prober's) and gets a 400 that says so, not a 500.

Anymail's view turns any exception into a 500, which a provider takes for "try again": a
malformed body (not JSON, not UTF-8, fields of the wrong shape) would be posted again and
again, and the log would read as a crash of ours. Only the reading of the payload is
guarded; what the message then does (the database, the answer's SMTP) keeps anymail's
500 for a fault that will pass (``notifications.receivers.receive_inbound``). The secret is
checked first, as before: a wrong one is still anymail's own 400.
"""

from __future__ import annotations

import logging
from typing import Any

from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

log = logging.getLogger(__name__)

# What reading a payload of the wrong shape raises inside anymail (json's and the
# codec's errors are ValueErrors; a missing key, a number where a list was due...).
_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, IndexError)


class UnreadablePayload(Exception):
    """The post is not a message anymail can read."""


class PostmarkInbound(PostmarkInboundWebhookView):
    """``/anymail/postmark/inbound/``: anymail's view, with a 400 for a bad payload."""

    def parse_events(self, request: HttpRequest) -> list[Any]:
        try:
            return list(super().parse_events(request))
        except _UNREADABLE as exc:
            raise UnreadablePayload(f"{type(exc).__name__}: {exc}") from exc

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().post(request, *args, **kwargs)
        except UnreadablePayload as exc:
            log.warning("inbound %s webhook: unreadable payload refused: %s", self.esp_name, exc)
            return HttpResponseBadRequest(
                f"unreadable inbound payload ({exc})\n", content_type="text/plain"
            )
