"""Bots play from what a player may know: hiding the secret parts of the state differently
(the seed, the deck order, the pile order) never changes the command a bot picks."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.base import State
from games.engines.registry import get_engine
from games.engines.rng import SeededRng

HIDDEN = {"lords-of-vegas": "deck", "vegas": "pile"}
CASES = [("lords-of-vegas", {"edition": "2024"}, 4), ("vegas", {"variant": "standard"}, 4)]


def _other_secrets(state: State, hidden: str) -> State:
    """The same position as a player sees it, with another seed and the hidden pile reversed."""
    other: dict[str, Any] = dict(state)
    other["seed"] = "f" * 64
    other[hidden] = list(reversed(state[hidden]))
    return other


@pytest.mark.parametrize(("slug", "options", "players"), CASES)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_bot_picks_the_same_command_whatever_the_hidden_order(slug, options, players, bot):
    engine = get_engine(slug)
    state, _ = engine.new_game(players, options, "1" * 64)
    checked = 0
    for move in range(150):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        label = f"fair {move}"
        chosen = engine.bots[bot](state, seat, SeededRng("bot", label))
        if len(state[HIDDEN[slug]]) > 1:
            blind = engine.bots[bot](
                _other_secrets(state, HIDDEN[slug]), seat, SeededRng("bot", label)
            )
            assert blind == chosen, f"{bot} peeked at the hidden {HIDDEN[slug]} at move {move}"
            checked += 1
        state, _ = engine.apply(state, seat, chosen)
    assert checked > 20
