"""The floor under the API's figures: the project's own WSGI application with three no-op
endpoints, served by the same gunicorn and loaded by the same clients as the real moves.

``benchmarks/api.py`` runs it after the game load, so that one run says what a move costs
against what the server stack costs doing nothing:

- ``/floor/wsgi``: answered before Django (gunicorn, the socket and the load generator only);
- ``/floor/django``: a plain Django view behind the project's middleware, no database;
- ``/floor/api``: a DRF view with the API's own authentication (a knox token, one query) and
  throttles (one Redis round trip), the fixed cost of every authenticated API request;
- ``/floor/move/<game_id>``: the least a move can cost on this stack, behind the same DRF
  view: the game locked and read with its seats (one round trip, tuples, no model
  instances), the engine's parse and apply, the log row and the game written with the
  ``COMMIT`` (one round trip), and an answer of the submission's shape (the moves in
  sentences, whom the game waits on, the mover's legal commands when it still acts), the
  seats' waiting flags kept (the game view reads them). What it leaves out is the
  platform's own work: deadlines, reminders and time banks, the outbox row, the idempotency
  fingerprint, the ETag, bots. It leaves the deadlines behind: ``benchmarks/api.py`` runs it
  last.

Benchmark-only: nothing in the project imports this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lords.settings")
django_application = get_wsgi_application()  # sets Django up: the imports below need it

import json  # noqa: E402

from django.db import connection  # noqa: E402
from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402
from django.utils import timezone  # noqa: E402
from psycopg.types.json import Jsonb  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

import lords.urls  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402

OK = b'{"ok": true}'


def plain(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


class Authenticated(APIView):
    """The API's default authentication, permission and throttles; no work."""

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


_READ = (
    "BEGIN; SELECT id, game_type, state, version, options FROM games_game WHERE id = %s "
    "FOR UPDATE; SELECT s.id, s.order, s.user_id, u.display_name, u.email FROM games_seat s "
    "LEFT JOIN accounts_user u ON u.id = s.user_id WHERE s.game_id = %s ORDER BY s.order"
)
_WRITE = (
    "WITH m AS (INSERT INTO games_move (game_id, seq, seat_id, command, text, events, source, "
    "idempotency_key, request_fingerprint, batch, created_at) "
    "VALUES (%s, %s, %s, %s, %s, %s, 'api', %s, '', %s, %s) RETURNING id), "
    "g AS (UPDATE games_game SET state = %s, version = %s, status = %s WHERE id = %s), "
    's AS (UPDATE games_seat SET to_act = ("order" = ANY(%s)) WHERE game_id = %s) '
    "SELECT (SELECT id FROM m); COMMIT"
)


class FloorMove(APIView):
    """The least a move can cost behind the API's authentication and throttles (see the
    module's docstring). Benchmark games only: every seat is a person."""

    def post(self, request: Request, game_id: int) -> Response:
        connection.ensure_connection()
        cursor = connection.connection.cursor()  # psycopg's own, in autocommit: BEGIN is ours
        cursor.execute(_READ, [game_id, game_id])
        cursor.nextset()
        game = cursor.fetchone()
        cursor.nextset()
        seats = cursor.fetchall()
        assert game is not None
        _, game_type, state, version, options = game
        engine = get_engine(game_type)
        seat: tuple[Any, ...] = next(s for s in seats if s[2] == request.user.pk)
        data: Any = request.data
        command = engine.parse(data["command"], options=json.loads(options))
        state, events = engine.apply(json.loads(state), seat[1], command)
        text, seq, over = engine.format(command), version + 1, engine.outcome(state) is not None
        key = request.headers.get("Idempotency-Key")
        status = "finished" if over else "active"
        move = [game_id, seq, seat[0], Jsonb(command.to_json()), text, Jsonb(list(events)), key]
        to_act = [] if over else list(engine.to_act(state))
        written = [seq, timezone.now(), Jsonb(state), seq, status, game_id, to_act, game_id]
        cursor.execute(_WRITE, [*move, *written])
        names = [name or email for _, _, _, name, email in seats]
        mine = seat[1] in to_act
        legal = engine.legal_commands(state, seat[1]) if mine else []
        described = [str(engine.describe(e, names)) for e in events]
        body = {
            "version": seq,
            "moves": [{"seq": seq, "text": text, "events": events, "described": described}],
            "status": status,
            "to_act": to_act,
            "your_turn": mine,
            "legal_commands": [{"text": engine.format(c)} for c in legal],
        }
        return Response(body, status=201)


lords.urls.urlpatterns += [
    path("floor/django", plain),
    path("floor/api", Authenticated.as_view()),
    path("floor/move/<int:game_id>", FloorMove.as_view()),
]


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == "/floor/wsgi":
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "12")])
        return [OK]
    return django_application(environ, start_response)
