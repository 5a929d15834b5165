"""The OpenAPI schema is valid OpenAPI 3 and the docs page renders (schemathesis runs
against it in ``test_schemathesis``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


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
    # Its start-up script is a file of its own (no inline script: docs/decisions/0010).
    assert 'src="/api/docs/?script="' in page
    script = anonymous.get("/api/docs/?script=")
    assert script.status_code == 200
    assert "javascript" in script["Content-Type"]
    assert "/api/schema/" in script.content.decode()


def test_every_operation_lists_the_errors_it_may_answer(anonymous: APIClient) -> None:
    """Found by fuzzing the schema: webhooks listed only their successes, the event stream
    no 400, a move no 422, and no operation the 413/415/429 every request may get."""
    schema = _schema(anonymous)
    operations = {
        op["operationId"]: op
        for path, ops in schema["paths"].items()
        if path.startswith("/api/v1/")
        for op in ops.values()
    }
    for name, op in operations.items():
        answers = set(op["responses"])
        assert "429" in answers, name
        if op.get("security"):
            assert "401" in answers, name
        if "requestBody" in op:
            assert {"400", "413", "415"} <= answers, name
    assert "422" in operations["moves_create"]["responses"]
    assert {"401", "404"} <= set(operations["webhooks_delete"]["responses"])
    assert "400" in operations["webhooks_create"]["responses"]
    stream = operations["events_stream"]
    assert "400" in stream["responses"]
    (last,) = [p for p in stream["parameters"] if p["name"] == "last_event_id"]
    assert last["schema"]["minimum"] == 0


def test_the_answers_of_a_submission_are_move_results(anonymous: APIClient) -> None:
    """The 201 and 200 examples were copies of the request's (decision 0039)."""
    operation = _schema(anonymous)["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    fields = {"version", "moves", "status", "to_act", "your_turn", "legal_commands"}
    for code in ("201", "200"):
        examples = operation["responses"][code]["content"]["application/json"]["examples"]
        assert examples and all(set(e["value"]) == fields for e in examples.values()), code
    requests = operation["requestBody"]["content"]["application/json"]["examples"]
    assert all("command" in e["value"] for e in requests.values())


def test_the_event_stream_offers_no_format(anonymous: APIClient) -> None:
    """Its answer is server-sent events whatever ``?format=`` says: json|sse was offered."""
    operation = _schema(anonymous)["paths"]["/api/v1/events/"]["get"]
    names = {parameter["name"] for parameter in operation["parameters"]}
    assert names == {"last_event_id", "seconds"}
