#!/usr/bin/env python3
"""Play a whole game for ONE seat through the Lords REST API (needs only ``requests``).

    python examples/play_game.py --url http://localhost:8000 --token "$LORDS_TOKEN" --game 12

It reads the game; when the game waits for this seat it picks one of the legal commands the
server lists (the first, or a random one with ``--strategy random``) and submits it with an
``Idempotency-Key`` (so a retried request can never play twice) and the version it read (so a
command based on an old position is refused with 409 instead of being applied). Between
reads it waits on the event stream (``/api/v1/events/``, server-sent events) for news of the
game, resuming with ``Last-Event-ID``, instead of polling. It stops when the game is over and
prints the outcome. Get a token with::

    curl -u you@example.org -X POST http://localhost:8000/api/v1/tokens/
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests

OVER = {"finished", "cancelled"}


@dataclass
class Result:
    status: str
    moves: int = 0
    conflicts: int = 0
    outcome: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)


class Client:
    """The few API calls a player needs."""

    def __init__(self, url: str, token: str, timeout: float = 10.0) -> None:
        self.api = url.rstrip("/") + "/api/v1"
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token}"
        self.session.headers["Accept"] = "application/json"
        self.timeout = timeout
        self.last_event: int | None = None  # the id of the last event read from the stream

    def _send(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """One request; when throttled (429), wait as long as the server says and retry."""
        while True:
            response = self.session.request(
                method, f"{self.api}{path}", timeout=self.timeout, **kwargs
            )
            if response.status_code != 429:
                return response
            time.sleep(float(response.headers.get("Retry-After", "1")))

    def game(self, game_id: int) -> dict[str, Any]:
        response = self._send("GET", f"/games/{game_id}/")
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    def wait(self, game_id: int, seconds: float) -> None:
        """Wait on the event stream until something happens in the game, the stream ends
        (the server ends each after a while: the next call reconnects) or ``seconds`` pass.
        Reconnects with ``Last-Event-ID``, so nothing is missed between two waits."""
        until = time.monotonic() + seconds
        headers = {"Accept": "text/event-stream"}
        if self.last_event is not None:
            headers["Last-Event-ID"] = str(self.last_event)
        try:
            with self.session.get(
                f"{self.api}/events/",
                params={"seconds": seconds},  # the server ends it then: no stream left behind
                headers=headers,
                stream=True,
                timeout=(self.timeout, seconds + self.timeout),
            ) as response:
                if response.status_code != 200:  # no stream here: wait the time out
                    time.sleep(max(0.0, until - time.monotonic()))
                    return
                for raw in response.iter_lines():
                    line = raw.decode("utf-8")
                    if line.startswith("data:"):
                        event = json.loads(line[5:])
                        self.last_event = event["id"]
                        if event.get("game") == game_id:
                            return
        except requests.RequestException:  # the network: the caller reads the game again
            return

    def submit(
        self, game_id: int, command: str, version: int, key: str
    ) -> tuple[int, dict[str, Any]]:
        response = self._send(
            "POST",
            f"/games/{game_id}/moves/",
            json={"command": command, "expected_version": version},
            headers={"Idempotency-Key": key},
        )
        try:
            body: dict[str, Any] = response.json()
        except ValueError:  # a proxy's error page, say: not the API's JSON
            body = {"text": response.text}
        return response.status_code, body


def choose(commands: list[str], strategy: str, rng: random.Random) -> str:
    return rng.choice(commands) if strategy == "random" else commands[0]


def play(
    url: str,
    token: str,
    game_id: int,
    *,
    strategy: str = "first",
    poll: float = 1.0,
    max_seconds: float = 3600.0,
    seed: int | None = None,
    verbose: bool = False,
) -> Result:
    """Play ``game_id`` for the token's seat until the game is over (or time runs out)."""
    client = Client(url, token)
    rng = random.Random(seed)
    result = Result(status="unknown")
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        game = client.game(game_id)
        result.status = game["status"]
        if game["status"] in OVER:
            result.outcome = game.get("outcome")
            return result
        mine = game["your_seat"]
        if not game["your_turn"] or not game["legal_commands"]:
            client.wait(game_id, poll)
            continue
        command = choose([c["text"] for c in game["legal_commands"]], strategy, rng)
        key = str(uuid.uuid4())
        code, body = _submit_with_retries(client, game_id, command, game["version"], key)
        if code in (200, 201):
            result.moves += 1
            result.log.append(command)
            if verbose:
                print(f"seat {mine}: {command} -> version {body['version']}", flush=True)
        elif code == 409:  # someone else moved first, or the game is over: read again
            result.conflicts += 1
        else:
            raise RuntimeError(f"the server refused {command!r}: {code} {body}")
    result.status = "timeout"
    return result


RETRIED = {500, 502, 503, 504}
"""Answers that say the server failed, not the request: the same submission may be sent
again with the same key (the server applies it at most once)."""


def _submit_with_retries(
    client: Client,
    game_id: int,
    command: str,
    version: int,
    key: str,
    attempts: int = 4,
    backoff: float = 0.25,
) -> tuple[int, dict[str, Any]]:
    """Network trouble or a server error (5xx): send the same request again with the same
    key, after a short wait that doubles each time. The server applies it at most once and
    answers a retry of an applied one with the first answer (200, Idempotent-Replayed), so
    a retry can never play twice. (The embedded SQLite server once answered "database is
    locked" to one of two clients writing at once.)"""
    for attempt in range(attempts):
        last = attempt == attempts - 1
        try:
            code, body = client.submit(game_id, command, version, key)
        except requests.ConnectionError:
            if last:
                raise
        else:
            if code not in RETRIED or last:
                return code, body
        time.sleep(backoff * 2**attempt)
    raise AssertionError("unreachable")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("LORDS_URL", "http://localhost:8000"))
    parser.add_argument("--token", default=os.environ.get("LORDS_TOKEN"))
    parser.add_argument("--game", type=int, required=True)
    parser.add_argument("--strategy", choices=["first", "random"], default="first")
    parser.add_argument(
        "--poll",
        type=float,
        default=20.0,
        help="at most this many seconds between reads (the event stream wakes it sooner)",
    )
    parser.add_argument("--max-seconds", type=float, default=24 * 3600.0)
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set LORDS_TOKEN")
    result = play(
        args.url,
        args.token,
        args.game,
        strategy=args.strategy,
        poll=args.poll,
        max_seconds=args.max_seconds,
        verbose=True,
    )
    print(f"game {args.game}: {result.status} after {result.moves} moves of mine")
    if result.outcome:
        print(f"outcome: {result.outcome}")
    return 0 if result.status in OVER else 1


if __name__ == "__main__":
    sys.exit(main())
