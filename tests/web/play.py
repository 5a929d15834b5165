"""Games played forward for the board-page tests: the people at the table let the greedy bot
choose for them (each choice a real ``submit_command``), to a move number or to the end."""

from __future__ import annotations

from typing import Any

from games import services
from games.engines.registry import get_engine
from games.engines.rng import SeededRng
from games.models import Game, Seat


def play(game: Game, *, moves: int | None = None) -> Game:
    """Play until ``game.version`` reaches ``moves`` (None: until the end)."""
    engine = get_engine(game.game_type)
    for turn in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or (moves is not None and game.version >= moves):
            break
        seat = Seat.objects.filter(game=game, to_act=True, user__isnull=False).first()
        assert seat is not None and game.state is not None
        command = engine.bots["greedy"](game.state, seat.order, SeededRng("web", str(turn)))
        services.submit_command(
            game=game, user=seat.user, text=engine.format(command), expected_version=game.version
        )
    game.refresh_from_db()
    return game


def play_one(game: Game) -> Any:
    """One move by whoever the game waits on; the user who played it."""
    game.refresh_from_db()
    seat = Seat.objects.filter(game=game, to_act=True, user__isnull=False).first()
    assert seat is not None
    play(game, moves=game.version + 1)
    return seat.user
