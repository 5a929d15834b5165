"""OpenAPI helpers: the error shape as a schema component, the standard error answers, the
submission headers and :func:`operation`, the one way an endpoint declares its schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable, for programs: 'not_your_turn', 'stale'...")
    message = serializers.CharField(help_text="A sentence for a person.")
    detail = serializers.DictField(
        help_text="More about it: current_version (409 stale), fields (400 invalid)...",
    )


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error of the API has this shape."""

    error = ErrorDetailSerializer()


_DESCRIPTIONS = {
    400: "Bad input: malformed JSON, invalid fields, an illegal or unknown command.",
    401: "No or bad credentials (send 'Authorization: Token <token>').",
    403: "Authenticated, but not allowed (not seated in this game, not yours...).",
    404: "No such game, offer, token or endpoint.",
    409: "Conflict with the game's state: not your turn, stale version, not started/finished.",
    413: "The body is larger than the server takes (2.5 MB).",
    415: "The body is not JSON (Content-Type: application/json).",
    422: "An Idempotency-Key sent again with another request (nothing was applied).",
    429: "Throttled: see Retry-After.",
}

_EXAMPLES = {
    409: [
        OpenApiExample(
            "stale version",
            value={
                "error": {
                    "code": "stale_version",
                    "message": "The game has moved on to version 13; reload and try again.",
                    "detail": {"current_version": 13},
                }
            },
        )
    ],
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """``responses={200: X, **errors(400, 401)}``."""
    return {
        code: OpenApiResponse(
            response=ErrorSerializer,
            description=_DESCRIPTIONS.get(code, "Error."),
            examples=_EXAMPLES.get(code, []),
        )
        for code in codes
    }


ACTION_ERRORS = (400, 401, 403, 404, 409)
"""What a write may answer besides success: bad input, no credentials, not allowed, no such
game, a conflict with the game's state."""

READ_ERRORS = (401, 403, 404)
"""What a read may answer besides success: no credentials, someone else's private game, no
such game."""


def operation(
    operation_id: str,
    summary: str,
    answers: dict[int, Any],
    fails: tuple[int, ...] = ACTION_ERRORS,
    **more: Any,
) -> Any:
    """``extend_schema`` for one endpoint: its operation id (part of the contract: clients
    generated from the schema name their methods after it), what it answers on success
    and the errors it may answer with, all in the one error shape."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        responses={**answers, **errors(*fails)},
        **more,
    )


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any unique string (a UUID): sending the same request again with the same "
    "key applies it once and answers 200 with the first answer.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag of the view you hold (from a read), or your move's answer's to "
    "wait for the other players (that answer holds no view): while the view is the same, "
    "the answer is 304 Not Modified with no body.",
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the view you hold is current.")
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The version you played against, e.g. "12", or the game view\'s ETag '
    '("12.3f…", which starts with it); the same as expected_version in the body.',
)


_EVERY_ANSWER = (401, 429)
"""What any authenticated endpoint may answer: no or bad credentials, throttled."""
_BODY_ANSWERS = (400, 413, 415)
"""What an endpoint that reads a body may answer: bad input, too large, not JSON."""
_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}


def common_answers(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A postprocessing hook (``SPECTACULAR_SETTINGS``): every operation of the API lists
    the errors every request may get (credentials, throttles; a body's size, type and
    content), in the one error shape, besides what its own declaration says (found by
    fuzzing: a client generated from the schema did not know them)."""
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/v1/"):
            continue
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = list(_EVERY_ANSWER) if operation.get("security") else [429]
            if "requestBody" in operation:
                codes += _BODY_ANSWERS
            for code in codes:
                operation["responses"].setdefault(
                    str(code), {"description": _DESCRIPTIONS[code], "content": _ERROR}
                )
    return result
