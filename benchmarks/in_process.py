"""Target 1 of issue 15 in-process: a move's CPU against the no-op call, without gunicorn.

The project's WSGI application (``benchmarks/floor_app.py``: the project with the no-op
endpoints) is called directly, one request at a time: each round reads what every game
needs (not measured), then submits one move per game, each followed by one no-op
authenticated call, so that both see the same state of the caches and the machine. The
CPU of each (``time.process_time``) is summed per round; a round's ratio is its moves' CPU
per move over its no-op calls' CPU per call. No network, no server threads, no load
generator on the same cores: the ratio moves by about ±0.02 between rounds where the one
``benchmarks/api.py`` measures under gunicorn moves by ±0.15, so it is the figure to
compare two versions of the move path by (alternating runs of each, a git worktree for
the other). It leaves out what gunicorn adds to every request (about a seventh of a no-op
call on the machines measured), which brings the ratio under gunicorn down: 2.43 here came
to about 2.25 there.

    python benchmarks/in_process.py                 # 400 games, 3 measured rounds
    ROUNDS=5 GAMES=200 python benchmarks/in_process.py

It makes its own database (``lords_in_process``, dropped first) with ``benchmarks/api.py``'s
helpers; the last line is one JSON object with every figure.
"""

from __future__ import annotations

import io
import json
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import api  # noqa: E402  (benchmarks/api.py: the database and the games)

GAMES = int(os.environ.get("GAMES", "400"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DB = "lords_in_process"

api.SERVER_ENV["DATABASE_URL"] = f"{api.PG_URL}/{DB}"
api.SERVER_ENV["REDIS_URL"] = "redis://127.0.0.1:6379/13"

Call = Callable[..., tuple[int, Any]]


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


def caller() -> Call:
    """A function calling the WSGI application as a server would, with a token."""
    from floor_app import application

    def call(
        method: str, path: str, token: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        raw = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": str(api.PORT),
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_AUTHORIZATION": f"Token {token}",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(raw)),
            "wsgi.input": io.BytesIO(raw),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if key is not None:
            environ["HTTP_IDEMPOTENCY_KEY"] = key
        status: list[str] = []
        out = b"".join(application(environ, lambda s, headers, exc=None: status.append(s)))
        return int(status[0][:3]), json.loads(out) if out else None

    return call


def ready(call: Call, game: api.BenchGame) -> bool:
    """Read the game as the seat to act until it is that seat's view (False: over)."""
    while game.known is None:
        _, view = call("GET", f"/api/v1/games/{game.id}/", game.tokens[game.acting])
        if view["status"] != "active":
            return False
        if not view["your_turn"]:
            game.acting = view["to_act"][0]
            continue
        game.known = (view["version"], view["legal_commands"])
    return True


def move(call: Call, game: api.BenchGame, rng: random.Random) -> bool:
    """One legal move of the seat to act, as ``benchmarks/api.py``'s clients make it."""
    assert game.known is not None
    version, legal = game.known
    choices = [c["text"] for c in legal if not c["text"].startswith("trade")]
    code, answer = call(
        "POST",
        f"/api/v1/games/{game.id}/moves/",
        game.tokens[game.acting],
        {"command": rng.choice(choices), "expected_version": version},
        key=str(uuid.uuid4()),
    )
    game.known = None
    if code == 201 and answer["status"] == "active":
        if answer["your_turn"]:
            game.known = (answer["version"], answer["legal_commands"])
        elif answer["to_act"]:
            game.acting = answer["to_act"][0]
    return code == 201


def one_round(call: Call, games: list[api.BenchGame], token: str, rng: random.Random) -> dict:
    playing = [g for g in games if ready(call, g)]
    moves, move_cpu, noop_cpu = 0, 0.0, 0.0
    for game in playing:
        started = time.process_time()
        applied = move(call, game, rng)
        between = time.process_time()
        call("GET", "/floor/api", token)
        noop_cpu += time.process_time() - between
        if applied:
            moves += 1
            move_cpu += between - started
    move_ms = move_cpu / max(moves, 1) * 1000
    noop_ms = noop_cpu / max(len(playing), 1) * 1000
    return {"moves": moves, "move_ms": move_ms, "noop_ms": noop_ms, "ratio": move_ms / noop_ms}


def main() -> int:
    games, token = prepare()
    call, rng = caller(), random.Random(5)
    one_round(call, games, token, rng)  # (warm: imports, caches, the connection)
    rounds = [one_round(call, games, token, rng) for _ in range(ROUNDS)]
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
