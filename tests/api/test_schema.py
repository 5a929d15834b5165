"""The OpenAPI schema is valid OpenAPI 3, the docs page renders, and schemathesis finds no
server error anywhere in the API (a token, a game in progress to aim at)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.validation import validate_schema
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.api.helpers import Player, make_player, start_game

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20"))
"""Examples per operation and generation mode (about 25 operations)."""


def _schema(client: APIClient) -> dict[str, Any]:
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200, response.content
    loaded: dict[str, Any] = json.loads(response.content)
    return loaded


def test_the_schema_is_valid_openapi_3(anonymous: APIClient) -> None:
    schema = _schema(anonymous)
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert {
        "game_types_list",
        "games_list",
        "games_create",
        "games_retrieve",
        "games_join",
        "games_add_bot",
        "games_start",
        "games_resign",
        "games_invite",
        "moves_list",
        "moves_create",
        "decisions_list",
        "trades_list",
        "trades_propose",
        "trades_accept",
        "trades_decline",
        "trades_withdraw",
        "games_verify",
        "games_export",
        "me_retrieve",
        "me_update",
        "tokens_list",
        "tokens_create",
        "tokens_revoke",
        "tokens_revoke_all",
    } <= operations
    assert "Error" in schema["components"]["schemas"]
    submit = schema["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    assert {p["name"] for p in submit["parameters"]} >= {"Idempotency-Key", "If-Match"}


def test_the_docs_page_renders(anonymous: APIClient) -> None:
    response = anonymous.get("/api/docs/")
    assert response.status_code == 200
    assert "text/html" in response["Content-Type"]
    page = response.content.decode()
    assert "swagger" in page.lower()
    assert "/api/schema/" in page


_DESTRUCTIVE = re.compile(r"/(resign|leave)/$")


@contextmanager
def _wsgi_app_in_this_transaction() -> Iterator[Any]:
    """Django's WSGI app serving in the test's thread and transaction: like Django's test
    client, it must not close the connection at the end of each request. (The test client
    reconnects the signal after each of its own requests, so no test client inside.)"""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.slow
def test_schemathesis_finds_no_server_error() -> None:
    players: list[Player] = [make_player() for _ in range(3)]
    me = players[0]
    game_id = start_game(me, players[1:], "vegas")
    with _wsgi_app_in_this_transaction() as app:
        statuses, checked = _fuzz(app, me.token, game_id)
    assert checked > 100
    assert len(statuses) >= 24
    # It did reach the game, not only 404s.
    assert 200 in statuses["GET /api/v1/games/{game_id}/"]


def _fuzz(app: Any, token: str, game_id: int) -> tuple[dict[str, set[int]], int]:
    schema: Any = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)
    # Revoking every token of the caller would end the run early; everything else is fair game.
    schema = schema.exclude(method="DELETE", path="/api/v1/tokens/")
    auth = {"Authorization": f"Token {token}"}
    statuses: dict[str, set[int]] = {}
    checked = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        checked += _fuzz_operation(operation, auth, game_id, statuses)
    return statuses, checked


def _fuzz_operation(
    operation: Any, auth: dict[str, str], game_id: int, statuses: dict[str, set[int]]
) -> int:
    """Positive and negative examples for one operation; half of them aimed at the game."""
    strategy = st.one_of(
        operation.as_strategy(schemathesis.GenerationMode.POSITIVE),
        operation.as_strategy(schemathesis.GenerationMode.NEGATIVE),
    )
    aimable = not _DESTRUCTIVE.search(operation.path)
    calls = 0

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy, aim=st.booleans())
    def run(case: Any, aim: bool) -> None:
        nonlocal calls
        params = case.path_parameters or {}
        if aim and aimable and "game_id" in params:
            params["game_id"] = game_id
        response = case.call(headers=auth)
        statuses.setdefault(operation.label, set()).add(response.status_code)
        checks: list[Any] = [not_a_server_error]
        if response.status_code < 300:
            checks.append(response_schema_conformance)
        case.validate_response(response, checks=checks)
        calls += 1

    run()
    return calls
