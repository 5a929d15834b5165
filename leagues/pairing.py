"""Who plays whom in a season: pure functions (no Django, no global randomness).

* 2 players a game: a round robin by the circle method. With n players (one "bye" added
  when n is odd) there are n - 1 rounds (n when odd) and every pair meets exactly once;
  the player order is first shuffled with the season's pairing seed.
* N > 2 players a game: the players are shuffled with the seed, then dealt into
  ceil(n / N) groups as even as possible (sizes differ by one at most: 7 players in games
  of 4 make a game of 4 and a game of 3).

Each repetition (a season's ``rounds``) redraws with the seed and the repetition's number,
so an admin can publish the seed and anyone can recompute the pairing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from games.engines.rng import SeededRng, shuffle

T = TypeVar("T")


def round_robin(players: Sequence[T]) -> list[list[tuple[T, T]]]:
    """Rounds of pairs; every pair of ``players`` appears exactly once."""
    ring: list[T | None] = list(players)
    if len(ring) % 2:
        ring.append(None)  # the bye
    n = len(ring)
    rounds: list[list[tuple[T, T]]] = []
    for _ in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]  # rotate all but the first
    return rounds


def groups(players: Sequence[T], size: int) -> list[list[T]]:
    """``players`` dealt in order into ceil(n / size) groups as even as possible."""
    n = len(players)
    if n == 0:
        return []
    count = -(-n // size)
    base, extra = divmod(n, count)
    out: list[list[T]] = []
    start = 0
    for index in range(count):
        length = base + (1 if index < extra else 0)
        out.append(list(players[start : start + length]))
        start += length
    return out


def schedule(players: Sequence[T], *, per_game: int, rounds: int, seed: str) -> list[list[list[T]]]:
    """The season's rounds, each a list of games (each a list of players)."""
    out: list[list[list[T]]] = []
    for repetition in range(1, rounds + 1):
        drawn = list(players)
        shuffle(SeededRng(seed, f"season pairing {repetition}"), drawn)
        if per_game == 2:
            out += [[list(pair) for pair in pairs] for pairs in round_robin(drawn)]
        else:
            out.append(groups(drawn, per_game))
    return out


def rotated(table: Sequence[T], met: dict[frozenset[int], list[list[T]]]) -> list[T]:
    """The table's seat order, turned by one place each time the same players meet again
    in the season (from the order of their first game as drawn), so the first seat goes
    round. ``met`` keeps each group's first order and meetings (keyed by the players' ids)
    and is updated."""
    key = frozenset(getattr(p, "pk", None) or id(p) for p in table)
    meetings = met.setdefault(key, [])
    first: list[T] = list(meetings[0]) if meetings else list(table)
    shift = len(meetings) % len(first)
    meetings.append(first)
    return first[shift:] + first[:shift]
