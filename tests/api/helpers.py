"""Helpers of the REST API tests: players with their own tokens and clients, games set up and
played through the API, the one error shape, and a recorder of every response for the
hidden-information scans."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game, Move

API = "/api/v1"
_numbers = itertools.count(1)


@dataclass
class Recorded:
    """One answer of the API, with what was secret in the game when it was given."""

    who: str
    method: str
    path: str
    status: int
    body: bytes
    secrets: dict[str, Any] = field(default_factory=dict)


@dataclass
class Player:
    """A person with an API token and their own client."""

    user: User
    token: str
    client: APIClient
    recorder: list[Recorded] | None = None
    secrets: Callable[[], dict[str, Any]] | None = None

    @property
    def label(self) -> str:
        return self.user.email

    def _record(self, method: str, path: str, response: Any) -> Any:
        if self.recorder is not None:
            body = getattr(response, "content", b"")
            self.recorder.append(
                Recorded(
                    self.label,
                    method,
                    path,
                    response.status_code,
                    body,
                    self.secrets() if self.secrets else {},
                )
            )
        return response

    def get(self, path: str, params: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        return self._record("GET", path, self.client.get(API + path, params, **kwargs))

    def post(self, path: str, data: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("format", "json")
        return self._record("POST", path, self.client.post(API + path, data, **kwargs))

    def patch(self, path: str, data: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("format", "json")
        return self._record("PATCH", path, self.client.patch(API + path, data, **kwargs))

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self._record("DELETE", path, self.client.delete(API + path, **kwargs))


def make_player(name: str | None = None) -> Player:
    name = name or f"player{next(_numbers)}"
    user = User.objects.create_user(f"{name}@example.org", "a-long-password-1", display_name=name)
    _, token = AuthToken.objects.create(user=user, expiry=None)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return Player(user, token, client)


def body(response: Any) -> Any:
    return json.loads(response.content)


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The one error shape: ``{"error": {"code", "message", "detail"}}``."""
    assert response.status_code == status, response.content
    data = body(response)
    assert set(data) == {"error"}, data
    error = data["error"]
    assert set(error) == {"code", "message", "detail"}, error
    assert isinstance(error["message"], str) and error["message"], error
    assert isinstance(error["detail"], dict), error
    if code is not None:
        assert error["code"] == code, error
    return error


def start_game(
    creator: Player,
    others: list[Player],
    game_type: str = "vegas",
    options: dict[str, Any] | None = None,
) -> int:
    """Create, join and start a game through the API; returns its id."""
    created = creator.post(
        "/games/",
        {"game_type": game_type, "options": options or {}, "seats": 1 + len(others)},
    )
    assert created.status_code == 201, created.content
    game_id = body(created)["id"]
    for other in others:
        joined = other.post(f"/games/{game_id}/join/", {})
        assert joined.status_code == 200, joined.content
    started = creator.post(f"/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    assert body(started)["status"] == "active"
    return int(game_id)


def play_to_the_end(
    game_id: int,
    players: list[Player],
    *,
    choose: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None,
    max_moves: int = 5_000,
    as_json: bool = False,
    extra: Callable[[Player, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Every seat's script: read the game; whoever the game waits on submits a legal command
    with an Idempotency-Key and the version read. Returns the final view."""
    choose = choose or (lambda commands: commands[0])
    moves = 0
    while moves < max_moves:
        progressed = False
        for player in players:
            view = body(player.get(f"/games/{game_id}/"))
            if extra is not None:
                extra(player, view)
            if view["status"] != "active":
                return view
            if not view["your_turn"]:
                continue
            picked = choose(view["legal_commands"])
            command = picked["command"] if as_json else picked["text"]
            answer = player.post(
                f"/games/{game_id}/moves/",
                {"command": command, "expected_version": view["version"]},
                HTTP_IDEMPOTENCY_KEY=f"{player.label}-{view['version']}",
            )
            assert answer.status_code == 201, answer.content
            assert body(answer)["version"] > view["version"]
            moves += 1
            progressed = True
        assert progressed, "nobody could move in an active game"
    raise AssertionError(f"game {game_id} did not end within {max_moves} moves")


def move_count(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id).count()


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)
