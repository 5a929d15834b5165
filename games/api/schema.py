"""OpenAPI helpers: the error shape as a schema component and the standard error answers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
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
