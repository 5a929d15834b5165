"""Schemathesis against the served schema, with a player's token and a game in progress to aim
at: no server error, and every answer, errors included, is what the schema says (its content
type and its body). Bounded (``SCHEMATHESIS_EXAMPLES`` examples per operation and mode) so
that it stays a few seconds of the suite; a longer run is ``st run`` against a live server
(docs/api.md)."""

from __future__ import annotations

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
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.api.helpers import Player, make_player, start_game

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "15"))
"""Examples per operation and generation mode (about 30 operations)."""

CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]

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
def test_every_answer_is_what_the_schema_says_and_none_is_a_server_error() -> None:
    players: list[Player] = [make_player() for _ in range(3)]
    me = players[0]
    game_id = start_game(me, players[1:], "vegas")
    # (the event stream ends at once: a stream lasts seconds by design)
    with _wsgi_app_in_this_transaction() as app, override_settings(EVENT_STREAM_SECONDS=0.05):
        statuses, failures, checked = _fuzz(app, me.token, game_id)
    assert failures == [], "\n\n".join(failures)
    assert checked > 100
    assert len(statuses) >= 25
    # It did reach the game, not only 404s.
    assert 200 in statuses["GET /api/v1/games/{game_id}/"]


def _fuzz(app: Any, token: str, game_id: int) -> tuple[dict[str, set[int]], list[str], int]:
    schema: Any = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)
    # Revoking every token of the caller would end the run early; everything else is fair game.
    schema = schema.exclude(method="DELETE", path="/api/v1/tokens/")
    auth = {"Authorization": f"Token {token}"}
    statuses: dict[str, set[int]] = {}
    failures: list[str] = []
    checked = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        checked += _fuzz_operation(operation, auth, game_id, statuses, failures)
    return statuses, failures, checked


def _fuzz_operation(
    operation: Any,
    auth: dict[str, str],
    game_id: int,
    statuses: dict[str, set[int]],
    failures: list[str],
) -> int:
    """Positive and negative examples for one operation, half of them aimed at the game;
    every failed check is collected (the first of each operation), not only the first."""
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
        calls += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except (AssertionError, FailureGroup) as failure:
            if not any(f.startswith(operation.label) for f in failures):
                failures.append(f"{operation.label} -> {response.status_code}: {failure}")

    run()
    return calls
