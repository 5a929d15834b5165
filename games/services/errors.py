"""The typed errors of the service layer: every door (REST, web, email, tasks) maps them the
same way. ``status`` is the HTTP status the API answers with; ``message`` is for a person."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A use case refused; nothing was written. A subclass states its code and status in
    its header (``class NotFound(ServiceError, code="not_found", status=404)``): the pair is
    what the doors map, so each error reads as one line of that table."""

    code: str = "error"
    status: int = 400

    def __init_subclass__(cls, *, code: str | None = None, status: int | None = None) -> None:
        super().__init_subclass__()
        if code is not None:
            cls.code = code
        if status is not None:
            cls.status = status

    def __init__(self, message: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra: dict[str, Any] = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class NotFound(ServiceError, code="not_found", status=404):
    """No such game, offer or invitation (the message names the id looked for)."""


class NotAllowed(ServiceError, code="not_allowed", status=403):
    """Not seated, not your game, not your offer."""


class NotYourTurn(ServiceError, code="not_your_turn", status=409):
    """The message names whom the game waits on ("it is Black's turn (Ada), not yours");
    ``extra["to_act"]`` holds their seat orders."""


class StaleVersion(ServiceError, code="stale_version", status=409):
    """``extra["current_version"]`` tells the client what to reload."""


class IllegalMove(ServiceError, code="illegal_move", status=400):
    """The engine's message; ``extra["command"]`` is what was refused."""


class MalformedCommand(IllegalMove, code="malformed_command"):
    """Text or JSON that is not a command at all."""


class GameNotActive(ServiceError, code="game_not_active", status=409):
    """Not started yet, or already finished; the message says what is left to do."""


class InvalidRequest(ServiceError, code="invalid_request", status=400):
    """Bad options, full game, missing argument..."""


class IdempotencyKeyReused(ServiceError, code="idempotency_key_reused", status=422):
    """An idempotency key sent again with a different request: refused rather than answered
    with the first request's answer, which would drop the new command unseen (as Stripe
    does); the message names what the key was first used for."""


class TooManyOffers(ServiceError, code="too_many_offers", status=409):
    """A player already has the most open trade offers one may have in a game: each offer
    emails its parties, so the limit bounds the emails one player sends them; the message
    says to wait for an answer or withdraw one."""
