"""Random text and JSON as commands and trade offers, in games of every type: never a 500,
always the one error shape, and nothing written unless the command was legal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import registry
from tests.api.helpers import Player, body, make_player, move_count, start_game

pytestmark = pytest.mark.django_db

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_words = st.sampled_from(
    ["place", "build", "sprawl", "trade", "pays", "gives", "lot", "die", "to", "from", "end",
     "gamble", "raise", "remodel", "reorganize", "move", "prefer", "layoff", "do", "sphinx",
     "red", "blue", "A2", "Z9", "4", "-1", "999999999999", "$5m", ";", ",", "", "é", "\t"]
)  # fmt: skip
_commands = st.one_of(
    st.lists(_words, min_size=1, max_size=8).map(" ".join),
    st.text(min_size=1, max_size=40),
    st.builds(
        lambda kind, extra: {**extra, "type": kind},
        st.sampled_from(["place", "build", "trade", "end", "x"]),
        st.dictionaries(st.text(max_size=8), _json, max_size=4),
    ),
    st.dictionaries(st.text(max_size=8), _json, max_size=4),
)


@pytest.mark.slow
@pytest.mark.parametrize("game_type", ["vegas", "lords-of-vegas"])
def test_random_commands_never_crash_the_server(game_type: str) -> None:
    try:
        registry.get_engine(game_type)
    except Exception as exc:
        pytest.skip(f"the {game_type} engine is not available yet ({exc})")
    players = [make_player() for _ in range(2)]
    game_id = start_game(players[0], players[1:], game_type)

    @settings(
        max_examples=150,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(command=_commands, as_trade=st.booleans(), player=st.sampled_from(players))
    def run(command: Any, as_trade: bool, player: Player) -> None:
        before = move_count(game_id)
        path = f"/games/{game_id}/{'trades' if as_trade else 'moves'}/"
        response = player.post(path, {"command": command})
        assert response.status_code < 500, (command, response.content)
        if response.status_code >= 400:
            data = body(response)
            assert set(data["error"]) == {"code", "message", "detail"}
            assert move_count(game_id) == before

    run()
