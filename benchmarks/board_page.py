"""The board page of a late Lords of Vegas game, rendered in-process through the project's
whole middleware (p50, p99 in ms), beside a no-op Django view (``floor_app.plain``) timed in
the same run, so the figure says what the page costs over the stack doing nothing.

    DATABASE_URL=postgres://... python benchmarks/board_page.py [--requests 200]

It creates a throwaway test database (Django's ``test_`` prefix), plays a 3-player game
(people letting the greedy bot choose) to its end to learn its length, then a second game of
the same seed to a few moves before that end: the late game. The viewer has moved, so the
page also replays to their last move (the lots changed since).

Three figures of the same page, beside the floor:

- ``board page``: a load as a player makes it, the page stored (``games/web/board_cache``);
  the target (issue 15, target 6) is its p50 at most 3 times the floor's;
- ``conditional GET``: the same with ``If-None-Match``: the 304;
- ``page not stored``: the viewer's stored page dropped before each load, as after a
  change at the table (the lots after their last move still cached): a render, stored;
- ``cold render``: with ``BOARD_PAGE_CACHE = False``, nothing cached: what the first load
  of a position costs (engine view, legal commands, the replay, the log, the templates).

Each row also says this process's CPU ms per load (PostgreSQL's and Redis's not counted:
less moved by the machine's load than wall-clock) and the queries of one load.

The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lords.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-" + "b" * 40)
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    override_settings,
    setup_databases,
    setup_test_environment,
    teardown_databases,
)
from django.urls import include, path  # noqa: E402

from accounts.models import User  # noqa: E402
from games import services  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402
from games.engines.rng import SeededRng  # noqa: E402
from games.models import Game, Seat  # noqa: E402

try:
    from games.web import board_cache
except ImportError:  # a checkout from before the cache: every load is the cold render
    board_cache = None  # type: ignore[assignment]


def plain(request: HttpRequest) -> JsonResponse:
    """The floor: a Django view that does nothing (as ``floor_app.plain``)."""
    return JsonResponse({"ok": True})


urlpatterns = [path("floor/django", plain), path("", include("lords.urls"))]

SEED = "b" * 64
TARGET = 3.0
"""Issue 15, target 6: the board page's p50 at most this many times the floor's."""


def _game(users: list[User], moves: int | None) -> Game:
    game = services.create_game(creator=users[0], game_type="lords-of-vegas", seats=len(users))
    for user in users[1:]:
        services.join_game(game=game, user=user)
    services.start_game(game=game, by=users[0], seed=SEED)
    engine = get_engine("lords-of-vegas")
    for turn in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or (moves is not None and game.version >= moves):
            break
        seat = Seat.objects.get(game=game, to_act=True)
        assert game.state is not None
        command = engine.bots["greedy"](game.state, seat.order, SeededRng("bench", str(turn)))
        services.submit_command(
            game=game, user=seat.user, text=engine.format(command), expected_version=game.version
        )
    game.refresh_from_db()
    return game


def _times(
    client: Client,
    url: str,
    n: int,
    status: int = 200,
    headers: dict[str, str] | None = None,
    before_each: Callable[[], object] = lambda: None,
) -> dict[str, float]:
    """p50 and p99 wall-clock ms of ``n`` GETs (``before_each`` untimed), the mean CPU ms
    of this process per GET (PostgreSQL's and Redis's work not counted; less moved by the
    machine's load), and the queries of one GET."""
    for _ in range(5):  # warm up
        before_each()
        first = client.get(url, secure=True, headers=headers)
        assert first.status_code == status, (url, first.status_code, first.headers)
    taken = []
    cpu = 0.0
    for _ in range(n):
        before_each()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url, secure=True, headers=headers)
        taken.append((time.perf_counter() - start) * 1000)
        cpu += time.process_time() - start_cpu
        assert response.status_code == status
    taken.sort()
    before_each()
    with CaptureQueriesContext(connection) as queries:
        client.get(url, secure=True, headers=headers)
    return {
        "p50_ms": round(statistics.median(taken), 2),
        "p99_ms": round(taken[min(len(taken) - 1, int(len(taken) * 0.99))], 2),
        "cpu_ms": round(cpu / n * 1000, 2),
        "queries": len(queries.captured_queries),
    }


def _forget(client: Client, page: str) -> Callable[[], object]:
    """Drop the viewer's stored page (as a change at the table would), nothing else."""
    response = client.get(page, secure=True)
    found = board_cache.fingerprint(int(page.strip("/").split("/")[-1]), response.wsgi_request.user)
    assert found is not None
    key = board_cache.key_for(response.wsgi_request, found)
    return lambda: board_cache.forget(key)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        users = [User.objects.create_user(f"p{i}@example.org", "x" * 20) for i in range(3)]
        length = _game(users, None).version
        late = _game(users, max(length - 6, 1))
        viewer = Seat.objects.filter(game=late, to_act=False).first() or late.seats.first()
        assert viewer is not None and viewer.user is not None
        client = Client()
        client.force_login(viewer.user)
        page = f"/games/{late.pk}/"
        with override_settings(ROOT_URLCONF=__name__):
            floor = _times(client, "/floor/django", args.requests)
            board = _times(client, page, args.requests)
            some = max(args.requests // 4, 20)
            rows: dict[str, dict[str, float]] = {}
            if board_cache is not None:
                etag = client.get(page, secure=True)["ETag"]
                headers = {"If-None-Match": etag}
                rows["conditional GET"] = _times(client, page, args.requests, 304, headers)
                rows["page not stored"] = _times(
                    client, page, some, before_each=_forget(client, page)
                )
            with override_settings(BOARD_PAGE_CACHE=False):
                cold = _times(client, page, some)
        ratio = round(board["p50_ms"] / max(floor["p50_ms"], 1e-6), 1)
        result = {
            "game_length": length,
            "late_game_version": late.version,
            "floor_django": floor,
            "board_page": board,
            "board_page_304": rows.get("conditional GET"),
            "board_page_miss": rows.get("page not stored"),
            "board_page_cold": cold,
            "board_over_floor_p50": ratio,
            "cold_over_floor_p50": round(cold["p50_ms"] / max(floor["p50_ms"], 1e-6), 1),
            "target_board_over_floor_p50": TARGET,
            "target_met": ratio <= TARGET,
        }
        print(f"late game: move {late.version} of {length}")
        for name, row in [
            ("no-op Django view", floor),
            ("board page", board),
            *rows.items(),
            ("cold render", cold),
        ]:
            over = row["p50_ms"] / max(floor["p50_ms"], 1e-6)
            print(
                f"{name:18}p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms"
                f"  {over:5.1f} x floor   cpu {row['cpu_ms']:6.2f} ms  {row['queries']:2} queries"
            )
        met = "met" if result["target_met"] else "NOT met"
        print(f"target: board page p50 <= {TARGET:g} x floor: {ratio:g} x, {met}")
        print(json.dumps(result))
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
