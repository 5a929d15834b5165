"""The unsubscribe link of every email (RFC 8058 one-click: a POST without a session)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import services
from notifications.addresses import user_id_for_unsubscribe_token


@csrf_exempt  # mail providers POST the one-click unsubscribe without a session or token
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with a button (link scanners follow GETs, so a GET changes nothing);
    POST: unsubscribe from every game email. A bad token, or the link of a deleted
    account: 400, nothing changed (in the browser's language: whose link it is, is not
    known). A good link's pages are in the language of the player it is for, as their
    emails are: the link is opened from an email, in any browser (found by play-testing:
    French Ada's link, opened in an English browser, asked "Stop game emails?")."""
    user_id = user_id_for_unsubscribe_token(token)
    if user_id is None or not services.may_unsubscribe(user_id):
        return render(request, "notifications/unsubscribe_invalid.html", status=400)
    language = services.language_of(user_id)
    if request.method == "POST":
        if not services.unsubscribe(user_id=user_id):
            return render(request, "notifications/unsubscribe_invalid.html", status=400)
        return _in(language, request, "notifications/unsubscribed.html")
    return _in(language, request, "notifications/unsubscribe_confirm.html", {"token": token})


def _in(
    language: str, request: HttpRequest, template: str, context: dict[str, Any] | None = None
) -> HttpResponse:
    """The page in ``language``, its answer saying so (else the request's would)."""
    with translation.override(language):
        response = render(request, template, context)
    response["Content-Language"] = language
    return response
