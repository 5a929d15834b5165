"""The floor under the API's figures: the project's own WSGI application with three no-op
endpoints, served by the same gunicorn and loaded by the same clients as the real moves.

``benchmarks/api.py`` runs it after the game load, so that one run says what a move costs
against what the server stack costs doing nothing:

- ``/floor/wsgi``: answered before Django (gunicorn, the socket and the load generator only);
- ``/floor/django``: a plain Django view behind the project's middleware, no database;
- ``/floor/api``: a DRF view with the API's own authentication (a knox token, one query) and
  throttles (one Redis round trip), the fixed cost of every authenticated API request.

Benchmark-only: nothing in the project imports this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lords.settings")
django_application = get_wsgi_application()  # sets Django up: the imports below need it

from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

import lords.urls  # noqa: E402

OK = b'{"ok": true}'


def plain(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


class Authenticated(APIView):
    """The API's default authentication, permission and throttles; no work."""

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


lords.urls.urlpatterns += [
    path("floor/django", plain),
    path("floor/api", Authenticated.as_view()),
]


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == "/floor/wsgi":
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "12")])
        return [OK]
    return django_application(environ, start_response)
