"""Properties over random games: whatever the seed, the player count and the variant."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalCommand
from games.engines.vegas import ENGINE, Place
from games.engines.vegas.commands import CASINOS
from games.engines.vegas.rules import DICE_PER_PLAYER, WHITE_DICE, dice_left
from tests.engines.vegas.helpers import clone, frozen, play_random_game

GAMES = settings(max_examples=25, deadline=None)


@st.composite
def games(draw: st.DrawFn) -> tuple[int, str, str, str]:
    variant = draw(st.sampled_from(["standard", "neutral"]))
    players = draw(st.integers(2, 4 if variant == "neutral" else 5))
    seed = draw(st.binary(min_size=1, max_size=32)).hex()
    bot = draw(st.sampled_from(["random", "greedy"]))
    return players, variant, seed, bot


@GAMES
@given(games())
def test_every_state_keeps_the_invariants_and_is_json(game: tuple[int, str, str, str]) -> None:
    states, _ = play_random_game(*game)
    for state in states:
        assert ENGINE.check_invariants(state) == []
        assert json.loads(json.dumps(state)) == state
    assert states[-1]["finished"] and ENGINE.outcome(states[-1]) is not None


@GAMES
@given(games())
def test_each_round_ends_with_every_die_placed(game: tuple[int, str, str, str]) -> None:
    players, variant, _, _ = game
    states, log = play_random_game(*game)
    every_die = DICE_PER_PLAYER * players + (WHITE_DICE if variant == "neutral" else 0)
    rounds_paid = 0
    for before, (seat, command) in zip(states, log, strict=False):
        after, events = ENGINE.apply(before, seat, command)
        payouts = [e for e in events if e["type"] == "payout"]
        if not payouts:
            assert after["round"] == before["round"]
            continue
        rounds_paid += 1
        assert [e["casino"] for e in payouts] == list(CASINOS)
        assert sum(count for e in payouts for _, count in e["dice"]) == every_die
        others = [dice_left(before, s) for s in range(players) if s != seat]
        assert others == [0] * (players - 1)
        assert len(ENGINE.legal_commands(before, seat)) == 1  # one number left to place
    assert rounds_paid == 4


@GAMES
@given(games())
def test_replaying_the_log_from_the_seed_gives_the_same_states(
    game: tuple[int, str, str, str],
) -> None:
    players, variant, seed, _ = game
    states, log = play_random_game(*game)
    state, _ = ENGINE.new_game(players, {"variant": variant}, seed)
    for expected, (seat, command) in zip(states[1:], log, strict=True):
        text = ENGINE.format(command)  # through the notation, as the log stores it
        state, _ = ENGINE.apply(state, seat, ENGINE.parse(text))
        assert state == expected


@GAMES
@given(games(), st.data())
def test_an_illegal_command_raises_and_changes_nothing(
    game: tuple[int, str, str, str], data: st.DataObject
) -> None:
    players, _, _, _ = game
    states, _ = play_random_game(*game)
    state = data.draw(st.sampled_from(states))
    before = frozen(state)
    seat = data.draw(st.integers(0, players - 1))
    number = data.draw(st.sampled_from(CASINOS))
    legal = Place(number) in ENGINE.legal_commands(state, seat)
    if legal:
        copy = clone(state)
        after, _ = ENGINE.apply(state, seat, Place(number))
        assert frozen(state) == before and state == copy and after["n"] == state["n"] + 1
    else:
        with pytest.raises(IllegalCommand):
            ENGINE.apply(state, seat, Place(number))
    assert frozen(state) == before


@GAMES
@given(games())
def test_the_view_never_shows_the_seed_or_another_seats_money(
    game: tuple[int, str, str, str],
) -> None:
    players, _, seed, _ = game
    states, _ = play_random_game(*game)
    for state in states[::7]:
        viewer = state["n"] % players
        view = ENGINE.view(state, viewer)
        assert seed not in json.dumps(view) or len(seed) < 8
        assert "seed" not in view
        hidden = [row["money"] is None for row in view["seats"] if row["seat"] != viewer]
        assert all(hidden) != state["finished"]
