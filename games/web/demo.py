"""A demo position of each game for the home page: a real game, set up and played by the
engine's own bots for a while from a fixed seed, drawn by the board page's own partials
(nothing is stored; computed once per process)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.engines.registry import get_engine
from games.engines.rng import SeededRng
from games.web import present

DEMO_SEED = "lords-home-page-demo"
DEMO_MOVES = {"lords-of-vegas": 40, "vegas": 9}
DEMO_PLAYERS = 3


@lru_cache(maxsize=4)
def _position(game_type: str) -> dict[str, Any]:
    engine = get_engine(game_type)
    state, _events = engine.new_game(DEMO_PLAYERS, {}, DEMO_SEED)
    bot = engine.bots["greedy"]
    for n in range(DEMO_MOVES.get(game_type, 20)):
        waiting = engine.to_act(state)
        if engine.outcome(state) is not None or not waiting:
            break
        seat = waiting[0]
        command = bot(state, seat, SeededRng(DEMO_SEED, f"demo-{n}"))
        state, _events = engine.apply(state, seat, command)
    return dict(engine.view(state, None))


def board(game_type: str) -> dict[str, Any]:
    """What ``games/_lords_board.html`` or ``_vegas_board.html`` draws, for the demo."""
    view = _position(game_type)
    if game_type == "lords-of-vegas":
        return {
            "kind": game_type,
            "name": present.game_name(game_type),
            **present.lords_board(view),
        }
    plain = [
        {"order": s["seat"], "name": s["colour"].capitalize(), "colour": s["colour"]}
        for s in view["seats"]
    ]
    seats = present.seats({"view": view, "seats": plain, "your_seat": None})
    return {
        "kind": game_type,
        "name": present.game_name(game_type),
        **present.vegas_board(view, seats),
    }
