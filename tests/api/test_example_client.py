"""``examples/play_game.py`` plays a whole Vegas game: one copy per seat, all at once (threads),
over real HTTP against the live test server, using nothing but the API."""

from __future__ import annotations

import importlib.util
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

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
