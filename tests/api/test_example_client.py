"""``examples/play_game.py`` plays a whole Vegas game: one copy per seat, all at once (threads),
over real HTTP against the live test server, using nothing but the API."""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest
import requests

from games.models import Game, Move
from games.services import verify_game
from tests.api.helpers import make_player, start_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "play_game.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("play_game_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_whole_game_for_every_seat(live_server: Any) -> None:
    example = _example()
    seats = [make_player() for _ in range(4)]
    game_id = start_game(seats[0], seats[1:], "vegas")
    with ThreadPoolExecutor(len(seats)) as pool:
        futures = [
            pool.submit(
                example.play,
                live_server.url,
                player.token,
                game_id,
                strategy="random",
                poll=0.02,
                max_seconds=120,
                seed=index,
            )
            for index, player in enumerate(seats)
        ]
        results = [f.result() for f in futures]
    assert [r.status for r in results] == ["finished"] * len(seats)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    played = Move.objects.filter(game=game, source="api").count()
    assert sum(r.moves for r in results) == played
    assert all(r.moves > 0 for r in results)
    assert verify_game(game=game).ok
    assert results[0].outcome == game.outcome


@pytest.mark.django_db(transaction=True)
def test_the_example_client_says_what_went_wrong(live_server: Any) -> None:
    example = _example()
    player = make_player()
    with pytest.raises(requests.HTTPError):
        example.play(live_server.url, player.token, 999_999, max_seconds=5)
    with pytest.raises(requests.HTTPError, match="401"):
        example.main(["--url", live_server.url, "--token", "bad", "--game", "1"])


class _Flaky(BaseHTTPRequestHandler):
    """A stand-in for a server in trouble: it drops the first connection, answers the
    second with a 500 (SQLite's "database is locked" once), then takes the move."""

    answers: ClassVar[list[str]] = ["drop", "500", "201"]
    keys: ClassVar[list[str | None]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        type(self).keys.append(self.headers["Idempotency-Key"])
        answer = type(self).answers.pop(0)
        if answer == "drop":
            self.close_connection = True
            return
        status = int(answer)
        body = json.dumps({"version": 1} if status == 201 else {"error": {}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        """(Quiet.)"""


def test_the_example_client_retries_a_failed_submission_with_the_same_key() -> None:
    """api.md says a retry with the same Idempotency-Key is safe: the example does it, on a
    dropped connection and on a 5xx, a few times, then answers what the server said."""
    example = _example()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = example.Client(f"http://127.0.0.1:{server.server_port}", "token")
        code, answer = example._submit_with_retries(client, 7, "place 1", 0, "k-1", backoff=0.01)
    finally:
        server.shutdown()
        server.server_close()
    assert (code, answer) == (201, {"version": 1})
    assert _Flaky.keys == ["k-1", "k-1", "k-1"]
