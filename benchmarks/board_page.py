"""The board page of a late Lords of Vegas game, rendered in-process through the project's
whole middleware (p50, p99 in ms), beside a no-op Django view (``floor_app.plain``) timed in
the same run, so the figure says what the page costs over the stack doing nothing.

    DATABASE_URL=postgres://... python benchmarks/board_page.py [--requests 200]

It creates a throwaway test database (Django's ``test_`` prefix), plays a 3-player game
(people letting the greedy bot choose) to its end to learn its length, then a second game of
the same seed to a few moves before that end: the late game. The viewer has moved, so the
page also replays to their last move (the lots changed since). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lords.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-" + "b" * 40)
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

import django

django.setup()

from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
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


def plain(request: HttpRequest) -> JsonResponse:
    """The floor: a Django view that does nothing (as ``floor_app.plain``)."""
    return JsonResponse({"ok": True})


urlpatterns = [path("floor/django", plain), path("", include("lords.urls"))]

SEED = "b" * 64


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


def _times(client: Client, url: str, n: int) -> dict[str, float]:
    for _ in range(5):  # warm up
        first = client.get(url, secure=True)
        assert first.status_code == 200, (url, first.status_code, first.headers)
    taken = []
    for _ in range(n):
        start = time.perf_counter()
        response = client.get(url, secure=True)
        taken.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    taken.sort()
    return {
        "p50_ms": round(statistics.median(taken), 2),
        "p99_ms": round(taken[min(len(taken) - 1, int(len(taken) * 0.99))], 2),
    }


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
        with override_settings(ROOT_URLCONF=__name__):
            floor = _times(client, "/floor/django", args.requests)
            board = _times(client, f"/games/{late.pk}/", args.requests)
        result = {
            "game_length": length,
            "late_game_version": late.version,
            "floor_django": floor,
            "board_page": board,
            "board_over_floor_p50": round(board["p50_ms"] / max(floor["p50_ms"], 1e-6), 1),
        }
        print(f"late game: move {late.version} of {length}")
        print(f"no-op Django view   p50 {floor['p50_ms']:8.2f} ms   p99 {floor['p99_ms']:8.2f} ms")
        print(f"board page          p50 {board['p50_ms']:8.2f} ms   p99 {board['p99_ms']:8.2f} ms")
        print(json.dumps(result))
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
