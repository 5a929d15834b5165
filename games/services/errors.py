"""The typed errors of the service layer: every door (REST, web, email, tasks) maps them the
same way. ``status`` is the HTTP status the API answers with; ``message`` is for a person."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A use case refused; nothing was written."""

    code: str = "error"
    status: int = 400

    def __init__(self, message: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra: dict[str, Any] = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class NotFound(ServiceError):
    code = "not_found"
    status = 404


class NotAllowed(ServiceError):
    """Not seated, not your game, not your offer."""

    code = "not_allowed"
    status = 403


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    status = 409


class StaleVersion(ServiceError):
    """``extra["current_version"]`` tells the client what to reload."""

    code = "stale_version"
    status = 409


class IllegalMove(ServiceError):
    """The engine's message; ``extra["command"]`` is what was refused."""

    code = "illegal_move"
    status = 400


class MalformedCommand(IllegalMove):
    """Text or JSON that is not a command at all."""

    code = "malformed_command"


class GameNotActive(ServiceError):
    """Not started yet, or already finished."""

    code = "game_not_active"
    status = 409


class InvalidRequest(ServiceError):
    """Bad options, full game, missing argument..."""

    code = "invalid_request"
    status = 400
