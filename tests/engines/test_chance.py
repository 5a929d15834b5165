"""What each engine says shows chance (``shows_chance``): the platform lets a command whose
events show a roll or a turned card only come last in a submission, so that no refusal can
tell a draw. Property: playing the same command on the same state with two random sources,
the first event that differs is one the engine flags; a turn's card (the hidden deck) is
flagged too."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import GameEngine
from games.engines.lords_of_vegas import ENGINE as LORDS
from games.engines.lords_of_vegas import from_position
from games.engines.rng import SeededRng
from games.engines.vegas import ENGINE as VEGAS

ENGINES: dict[str, GameEngine] = {"lords-of-vegas": LORDS, "vegas": VEGAS}
OPTIONS = {
    "lords-of-vegas": [{"edition": "2024"}, {"edition": "classic"}],
    "vegas": [{"variant": "standard"}, {"variant": "neutral"}],
}


@settings(max_examples=25, deadline=None)
@given(
    slug=st.sampled_from(sorted(ENGINES)),
    edition=st.integers(0, 1),
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
)
def test_the_first_event_a_roll_changes_is_flagged(slug, edition, players, seed):
    engine = ENGINES[slug]
    state, _ = engine.new_game(players, OPTIONS[slug][edition], f"chance {seed}")
    pick = random.Random(seed)
    for step in range(120):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        commands = engine.legal_commands(state, seat)
        command = commands[pick.randrange(len(commands))]
        one = engine.apply(state, seat, command, rng=SeededRng("one", f"{step}"))[1]
        other = engine.apply(state, seat, command, rng=SeededRng("other", f"{step}"))[1]
        differs = next(
            (i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b), None
        )
        if differs is None and len(one) != len(other):
            differs = min(len(one), len(other))
        if differs is not None:
            assert engine.shows_chance(one[differs]), (engine.format(command), one[differs])
        state = engine.apply(state, seat, command)[0]


def test_a_turns_card_shows_chance():
    state = from_position("seats: red yellow\nturn: red\ndeck: B2\n")
    _, events = LORDS.apply(state, 0, LORDS.parse("end"))
    cards = [e for e in events if e["type"] == "card"]
    assert cards and all(LORDS.shows_chance(e) for e in cards)
    assert not any(LORDS.shows_chance(e) for e in events if e["type"] in {"turn_end", "turn"})
