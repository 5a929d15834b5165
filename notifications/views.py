"""The unsubscribe link of every email (RFC 8058 one-click: a POST without a session)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import services
from notifications.addresses import user_id_for_unsubscribe_token


@csrf_exempt  # mail providers POST the one-click unsubscribe without a session or token
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with a button (link scanners follow GETs, so a GET changes nothing);
    POST: unsubscribe from every game email. A bad token, or the link of a deleted
    account: 400, nothing changed."""
    user_id = user_id_for_unsubscribe_token(token)
    if user_id is None or not services.may_unsubscribe(user_id):
        return render(request, "notifications/unsubscribe_invalid.html", status=400)
    if request.method == "POST":
        if not services.unsubscribe(user_id=user_id):
            return render(request, "notifications/unsubscribe_invalid.html", status=400)
        return render(request, "notifications/unsubscribed.html")
    return render(request, "notifications/unsubscribe_confirm.html", {"token": token})
