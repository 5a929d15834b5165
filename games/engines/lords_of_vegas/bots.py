"""Two bots built on ``legal_commands``; their choices come from the rng they are given.

* ``random``: uniform over the legal actions, but it ends its turn with probability 1/3 and
  after a few actions, so games always reach the end.
* ``greedy``: tries each non-random action on a copy and keeps the one that most improves a
  simple evaluation (points, casinos bossed, dice, money); ends the turn when none helps.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engines.base import Bot, IllegalCommand, State
from games.engines.rng import Rng

from .actions import perform
from .board import TRACK_INDEX
from .casinos import boss, casinos, points, touches_strip
from .commands import Command, End
from .decisions import automatic_answer, pending_for
from .legal import actions, legal_commands
from .state import OWNER, PIP, copy_state

MAX_ACTIONS = 4


def random_bot(state: State, seat: int, rng: Rng) -> Command:
    options = list(legal_commands(state, seat))
    if not options:
        return End()
    if pending_for(state, seat) is not None:
        return options[rng.randbelow(len(options))]
    actions = [cmd for cmd in options if not isinstance(cmd, End)]
    if not actions or state["acts"] >= MAX_ACTIONS or rng.randbelow(3) == 0:
        return End()
    return actions[rng.randbelow(len(actions))]


def evaluate(state: State, seat: int) -> float:
    """Points dominate; then the casinos we boss (Strip ones score more often), our dice and
    our money (money is only worth what it builds)."""
    value = 10.0 * TRACK_INDEX[state["score"][seat]] + 0.4 * float(state["money"][seat])
    for casino in casinos(state):
        if boss(state, casino) == seat:
            value += 3.0 * points(state, casino) + (2.0 if touches_strip(casino) else 0.0)
    for tile in state["tiles"].values():
        if tile[OWNER] == seat:
            value += 0.5 * float(tile[PIP]) + 1.0
    for owner in state["markers"].values():
        value += 1.0 if owner == seat else 0.0
    return value


def greedy_bot(state: State, seat: int, rng: Rng) -> Command:
    """Tries every build, sprawl, remodel and raise on a copy (the rules' own code, without
    the engine's dispatch) and keeps the first best one."""
    decision = pending_for(state, seat)
    if decision is not None:
        return automatic_answer(state, decision)
    if state["over"] is not None or state["pending"] or seat != state["turn"]:
        return End()
    if state["acts"] >= MAX_ACTIONS * 2:
        return End()
    best: Command = End()
    best_value = evaluate(state, seat) + 0.5
    for cmd in actions(state, seat, plain=True):
        trial = copy_state(state)
        try:
            perform(trial, seat, cmd, rng, [])  # type: ignore[arg-type]
        except IllegalCommand:
            continue
        value = evaluate(trial, seat)
        if value > best_value:
            best, best_value = cmd, value
    return best


BOTS: Mapping[str, Bot] = {"random": random_bot, "greedy": greedy_bot}
