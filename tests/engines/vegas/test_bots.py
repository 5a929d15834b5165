"""The bots play legal commands, draw only from the rng they are given, and greed pays."""

from __future__ import annotations

from games.engines.rng import ScriptedRng, SeededRng
from games.engines.vegas import ENGINE, Place
from tests.engines.vegas.helpers import BENNO, SEED, set_notes, set_roll, start


def test_both_bots_offer_only_legal_commands() -> None:
    state = start(4, "neutral")
    for name, bot in ENGINE.bots.items():
        for k in range(20):
            command = bot(state, state["active"], SeededRng(SEED, f"{name} {k}"))
            assert command in ENGINE.legal_commands(state, state["active"])


def test_the_random_bot_uses_the_pick_it_is_given() -> None:
    state = set_roll(start(4), BENNO, [1, 3, 3, 6])
    assert ENGINE.bots["random"](state, BENNO, ScriptedRng(picks=[2])) == Place(6)


def test_the_greedy_bot_takes_the_rich_casino_it_can_win() -> None:
    state = start(4)
    set_notes(state, 2, [20_000, 30_000])
    set_notes(state, 5, [90_000])
    set_roll(state, BENNO, [2, 2, 2, 5])
    assert ENGINE.bots["greedy"](state, BENNO, ScriptedRng()) == Place(5)


def test_the_greedy_bot_beats_the_random_bot_more_often_than_not() -> None:
    wins = 0
    for game in range(20):
        seed = f"{game:064x}"
        state, _ = ENGINE.new_game(2, {}, seed)
        while not state["finished"]:
            seat = state["active"]
            bot = ENGINE.bots["greedy" if seat == 0 else "random"]
            command = bot(state, seat, SeededRng(seed, f"bot {state['n']}"))
            state, _ = ENGINE.apply(state, seat, command)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins > 10
