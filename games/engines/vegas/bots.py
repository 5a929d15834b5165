"""Two bots for self-play and for seats whose player left: they draw only from the rng given."""

from __future__ import annotations

from games.engines.base import State
from games.engines.rng import Rng
from games.engines.vegas.commands import Place
from games.engines.vegas.rules import casino_parties, pay_casino, rolled_numbers


def random_bot(state: State, seat: int, rng: Rng) -> Place:
    """Any number rolled, uniformly."""
    choices = rolled_numbers(state)
    return Place(choices[0] if len(choices) == 1 else choices[rng.randbelow(len(choices))])


def standing_winnings(state: State, seat: int, number: int | None = None) -> int:
    """What ``seat`` would win if the casinos paid now, after placing ``number`` (if given)."""
    total = 0
    roll = state["roll"]
    for index, casino in enumerate(state["casinos"]):
        parties = casino_parties(casino)
        if number == index + 1:
            parties[seat] = parties.get(seat, 0) + roll["own"].count(number)
            if roll["white"].count(number):
                parties["white"] = parties.get("white", 0) + roll["white"].count(number)
        payout = pay_casino(casino["notes"], parties)
        total += sum(value for party, value in payout.awards if party == seat)
    return total


def greedy_bot(state: State, seat: int, rng: Rng) -> Place:
    """The number that most raises what the seat would win if the casinos paid now; among
    equals, the one that spends the fewest dice (dice kept are choices kept), then by lot."""
    roll = state["roll"]
    scored = []
    for number in rolled_numbers(state):
        used = roll["own"].count(number) + roll["white"].count(number)
        scored.append((standing_winnings(state, seat, number), -used, number))
    best = max(score[:2] for score in scored)
    tied = [number for gain, used, number in scored if (gain, used) == best]
    return Place(tied[0] if len(tied) == 1 else tied[rng.randbelow(len(tied))])
