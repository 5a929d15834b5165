"""The turn marker (the timeout policy's "one miss, one turn"): every ``place`` is a turn, so
the marker changes with each, even when the turn comes back to the same seat."""

from __future__ import annotations

from games.engines.vegas import ENGINE
from games.engines.vegas.commands import Place

from .helpers import ANNA, BENNO, empty_hand, rolls, set_roll, sound, start


def test_the_marker_changes_when_the_turn_comes_back_to_the_same_seat() -> None:
    state = start(2)
    empty_hand(state, BENNO)
    sound(set_roll(state, ANNA, [2, 4, 4]))
    before = ENGINE.turn_marker(state)
    after, _ = ENGINE.apply(state, ANNA, Place(4), rng=rolls(2))
    assert ENGINE.to_act(after) == [ANNA]  # Benno has no dice: Anna again
    assert ENGINE.turn_marker(after) != before
    assert ENGINE.turn_marker(state) == before  # pure: the old state is untouched


def test_the_marker_changes_with_every_turn_and_is_stable_in_between() -> None:
    state = start(3)
    seen = {ENGINE.turn_marker(state)}
    for _ in range(6):
        seat = ENGINE.to_act(state)[0]
        assert ENGINE.turn_marker(state) == ENGINE.turn_marker(dict(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.default_command(state, seat))
        assert ENGINE.turn_marker(state) not in seen
        seen.add(ENGINE.turn_marker(state))
