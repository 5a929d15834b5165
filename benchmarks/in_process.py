"""Target 1 of issue 15 in-process: a move's CPU against the no-op call, without gunicorn.

The project's WSGI application (``benchmarks/floor_app.py``: the project with the no-op
endpoints) is called directly, one request at a time: each round reads what every game
needs (not measured), then submits one move per game, each followed by one no-op
authenticated call, so that both see the same state of the caches and the machine. The
CPU of each answer (``time.process_time`` around the application's call: the server's
part, not the client's choosing of a move and reading of the answer) is summed per round;
a round's ratio is its moves' CPU per move over its no-op calls' CPU per call. No network,
no server threads, no load generator on the same cores: the ratio moves by about ±0.02
between rounds where the one ``benchmarks/api.py`` measures under gunicorn moves by ±0.15.
Between runs it moves more (±0.04, with the machine), so two versions of the move path are
compared by runs of each side by side (``IN_PROCESS_DB`` and ``IN_PROCESS_REDIS`` give each
its own database and Redis; a git worktree for the other version). It leaves out what
gunicorn adds to every request, and gunicorn's threads: the two ratios have come out within
a few hundredths of each other (ninth session: 2.1 to 2.2 both).

    python benchmarks/in_process.py                 # 400 games, 3 measured rounds
    ROUNDS=5 GAMES=200 python benchmarks/in_process.py

The requests are made by ``benchmarks/api.py``'s own client functions, on a connection
object answered by the WSGI application (:class:`WSGIConnection`). It makes its own
database (``lords_in_process`` unless ``IN_PROCESS_DB`` says, dropped first) with
``benchmarks/api.py``'s helpers; the last line is one JSON object with every figure.
"""

from __future__ import annotations

import io
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import api  # noqa: E402  (benchmarks/api.py: the database and the games)

GAMES = int(os.environ.get("GAMES", "400"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DB = os.environ.get("IN_PROCESS_DB", "lords_in_process")

api.SERVER_ENV["DATABASE_URL"] = f"{api.PG_URL}/{DB}"
api.SERVER_ENV["REDIS_URL"] = os.environ.get("IN_PROCESS_REDIS", "redis://127.0.0.1:6379/13")


def prepare() -> tuple[list[api.BenchGame], str]:
    """A fresh database with ``GAMES`` running games; a token for the no-op call."""
    api.recreate(DB)
    os.environ.update(api.SERVER_ENV)
    api.migrate()
    api.setup_django()
    api.empty_redis()
    people = api.make_users()
    games, _ = api.make_games(GAMES, api.lords_available(), people)
    return games, next(iter(people[1].values()))


class WSGIConnection:
    """What ``benchmarks/api.py``'s clients use of ``http.client.HTTPConnection`` (a request,
    its response), answered by the project's WSGI application in this process: its
    ``call``, ``refresh`` and ``submit_move`` then play here as they play over HTTP."""

    def __init__(self) -> None:
        from floor_app import application

        self.application = application
        self.answer: tuple[int, list[tuple[str, str]], bytes] | None = None
        self.spent = 0.0
        """The CPU of the last request's answer: the server's part, not the client's."""

    def request(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> None:
        raw = body or b""
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": str(api.PORT),
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_LENGTH": str(len(raw)),
            "wsgi.input": io.BytesIO(raw),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "HTTP_HOST": "127.0.0.1",
        }
        for name, value in headers.items():
            key = name.upper().replace("-", "_")
            environ[key if key == "CONTENT_TYPE" else f"HTTP_{key}"] = value
        started: list[Any] = []
        before = time.process_time()
        out = b"".join(self.application(environ, lambda *answer: started.append(answer)))
        self.spent = time.process_time() - before
        status, answer_headers = started[0][0], started[0][1]
        self.answer = (int(status[:3]), answer_headers, out)

    def getresponse(self) -> WSGIConnection:
        return self

    @property
    def status(self) -> int:
        assert self.answer is not None
        return self.answer[0]

    def read(self) -> bytes:
        assert self.answer is not None
        return self.answer[2]

    def getheaders(self) -> list[tuple[str, str]]:
        assert self.answer is not None
        return self.answer[1]

    def close(self) -> None:
        pass


def one_round(
    conn: Any, games: list[api.BenchGame], token: str, rng: random.Random
) -> dict[str, Any]:
    """The reads every game needs (not measured), then a move in each, each followed by
    a no-op call, as ``benchmarks/api.py``'s clients make them."""
    playing = [g for g in games if api.refresh(conn, g)]
    moves, move_cpu, noop_cpu = 0, 0.0, 0.0
    for game in playing:
        code, _ = api.submit_move(conn, game, rng)
        spent = conn.spent
        api.call(conn, "GET", "/floor/api", token)
        noop_cpu += conn.spent
        if code == 201:
            moves += 1
            move_cpu += spent
    move_ms = move_cpu / max(moves, 1) * 1000
    noop_ms = noop_cpu / max(len(playing), 1) * 1000
    return {"moves": moves, "move_ms": move_ms, "noop_ms": noop_ms, "ratio": move_ms / noop_ms}


def main() -> int:
    games, token = prepare()
    conn, rng = WSGIConnection(), random.Random(5)
    one_round(conn, games, token, rng)  # (warm: imports, caches, the connection)
    rounds = [one_round(conn, games, token, rng) for _ in range(ROUNDS)]
    for n, found in enumerate(rounds, 1):
        api.log(
            f"round {n}: {found['moves']} moves, {found['move_ms']:.3f} ms a move, "
            f"{found['noop_ms']:.3f} ms a no-op call, ratio {found['ratio']:.2f}"
        )
    print(
        json.dumps(
            {
                "games": GAMES,
                "rounds": [round(r["ratio"], 3) for r in rounds],
                "move_cpu_to_noop_in_process": round(
                    statistics.median(r["ratio"] for r in rounds), 3
                ),
                "move_ms": round(statistics.median(r["move_ms"] for r in rounds), 3),
                "noop_ms": round(statistics.median(r["noop_ms"] for r in rounds), 3),
            }
        )
    )
    from django.db import connections

    connections.close_all()
    api.psql(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
