"""The inbound webhook of the email door: anymail's Postmark view, except that a post it
cannot read is the provider's fault (or a prober's) and gets a 400 that says so, not a 500.

Anymail's view turns any exception into a 500, which a provider takes for "try again": a
malformed body (not JSON, not UTF-8, fields of the wrong shape) would be posted again and
again, and the log would read as a crash of ours. Only the reading of the payload is
guarded; what the message then does (the database, the answer's SMTP) keeps anymail's
500 for a fault that will pass (``notifications.receivers.receive_inbound``). The secret is
checked first, as before: a wrong one is still anymail's own 400.

A real reply may carry a photo: the webhook reads posts up to its own limit, larger than the
API's; and an empty file (``"Content": ""``) is no reason to refuse the reply.
"""

from __future__ import annotations

import logging
from typing import Any

from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
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
            _read_body(request)
            return list(super().parse_events(request))
        except _UNREADABLE as exc:
            raise UnreadablePayload(f"{type(exc).__name__}: {exc}") from exc

    def esp_to_anymail_event(self, esp_event: Any) -> Any:
        return super().esp_to_anymail_event(_empty_files_kept(esp_event))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().post(request, *args, **kwargs)
        except UnreadablePayload as exc:
            log.warning("inbound %s webhook: unreadable payload refused: %s", self.esp_name, exc)
            return HttpResponseBadRequest(
                f"unreadable inbound payload ({exc})\n", content_type="text/plain"
            )


def _read_body(request: HttpRequest) -> None:
    """Read the post under the webhook's own limit (``INBOUND_WEBHOOK_MAX_MEMORY_SIZE``), not
    the API's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, which a reply with a photo exceeds: Django
    checks that one when ``request.body`` is first read, so it is read here first (after
    the secret's check, so strangers cannot make us hold that much)."""
    size = int(request.META.get("CONTENT_LENGTH") or 0)
    if size > settings.INBOUND_WEBHOOK_MAX_MEMORY_SIZE:
        raise RequestDataTooBig(
            f"the inbound email is larger than {settings.INBOUND_WEBHOOK_MAX_MEMORY_SIZE} bytes"
        )
    if not hasattr(request, "_body"):
        request._body = request.read()


def _empty_files_kept(esp_event: Any) -> Any:
    """Postmark posts an empty file as ``"Content": ""``, which anymail takes for no content
    at all (it then looks for a test payload's "Data" and raises): give it that, empty.
    Attachments are not read; an attachment without "Content" is still unreadable."""
    if not isinstance(esp_event, dict) or not isinstance(esp_event.get("Attachments"), list):
        return esp_event
    attachments = [
        {**attachment, "Data": ""}
        if isinstance(attachment, dict) and attachment.get("Content") == ""
        else attachment
        for attachment in esp_event["Attachments"]
    ]
    return {**esp_event, "Attachments": attachments}
