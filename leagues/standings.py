"""Standings and ratings: pure functions over the placings of finished games (no Django).

Points by placing, for a game of N players: the k-th place is worth N - k points (1st:
N - 1, ..., last: 0). Players tied on a rank share the places they occupy: each gets the
average of those places' points (two tied first of three: (2 + 1) / 2 = 1.5 each). So every
game of N players hands out N(N - 1)/2 points in all. A resigned or forfeited player is
ranked after everyone who did not resign (the platform's outcome already says so; this
module makes sure of it).

The table is ordered by points, then wins (a shared first counts as a win), then fewer
games played (the same points in fewer games), then the player key, so that the order is
total; players equal on the first three share a position ("=2").

The rating is OpenSkill's Plackett-Luce model over the whole league, each finished game
applied in the order the games finished; the ordinal (mu - 3 sigma) is what is shown.
See ``docs/decisions/0006-leagues.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

Player = Hashable
"""Whatever identifies a player (a user id in the app)."""


@dataclass(frozen=True)
class Placing:
    player: Any
    rank: int
    resigned: bool = False


@dataclass(frozen=True)
class Result:
    """A finished game: its placings (any order)."""

    game_id: int
    placings: tuple[Placing, ...]


@dataclass
class Row:
    player: Any
    played: int = 0
    wins: int = 0
    points: Fraction = Fraction(0)
    position: int = 0
    shared: bool = False
    games: list[int] = field(default_factory=list)

    def key(self) -> tuple[Fraction, int, int]:
        """What the table is ordered by (the player key breaks the last ties)."""
        return (-self.points, -self.wins, self.played)


def ordered(placings: Iterable[Placing]) -> list[list[Placing]]:
    """The placings in finishing order, tied players grouped: resigned players last."""
    groups: dict[tuple[bool, int], list[Placing]] = {}
    for placing in placings:
        groups.setdefault((placing.resigned, placing.rank), []).append(placing)
    return [groups[key] for key in sorted(groups)]


def points(placings: Sequence[Placing]) -> dict[Any, Fraction]:
    """Points of each player of one game: place k of N is worth N - k; ties share."""
    n = len(placings)
    out: dict[Any, Fraction] = {}
    taken = 0
    for group in ordered(placings):
        places = range(taken + 1, taken + len(group) + 1)
        share = Fraction(sum(n - k for k in places), len(group))
        for placing in group:
            out[placing.player] = share
        taken += len(group)
    return out


def winners(placings: Sequence[Placing]) -> list[Any]:
    groups = ordered(placings)
    return [p.player for p in groups[0]] if groups else []


def standings(results: Iterable[Result], players: Iterable[Any] = ()) -> list[Row]:
    """The table: one row per player in ``players`` (entered, maybe without a game yet) and
    per player of a result, ordered and with positions."""
    rows: dict[Any, Row] = {player: Row(player) for player in players}
    for result in results:
        won = set(winners(result.placings))
        for player, got in points(result.placings).items():
            row = rows.setdefault(player, Row(player))
            row.played += 1
            row.points += got
            row.wins += player in won
            row.games.append(result.game_id)
    table = sorted(rows.values(), key=lambda r: (r.key(), _sortable(r.player)))
    for index, row in enumerate(table):
        before = table[index - 1] if index else None
        if before is not None and before.key() == row.key():
            row.position, row.shared, before.shared = before.position, True, True
        else:
            row.position = index + 1
    return table


def _sortable(player: Any) -> tuple[int, int, str]:
    """A total order on player keys: numbers by value, anything else by its text."""
    if isinstance(player, int) and not isinstance(player, bool):
        return (0, player, "")
    return (1, 0, str(player))


# -- rating -----------------------------------------------------------------------------------

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The shown value: mu - 3 sigma (a cautious estimate: it rises as games are
        played and won)."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


def rate(ratings: dict[Any, Rating], result: Result) -> dict[Any, Rating]:
    """The ratings after one game (a new dict; players not yet rated start at the default).
    A game of fewer than two players changes nothing."""
    out = dict(ratings)
    if len(result.placings) < 2:
        return out
    # Canonical order (finishing order, then the player key), so that the seats' numbering
    # cannot change the update.
    lined = sorted(result.placings, key=lambda p: (p.resigned, p.rank, _sortable(p.player)))
    place_of = {}
    for index, group in enumerate(ordered(lined)):
        for placing in group:
            place_of[placing.player] = index + 1
    teams = [
        [MODEL.rating(mu=out.get(p.player, DEFAULT).mu, sigma=out.get(p.player, DEFAULT).sigma)]
        for p in lined
    ]
    ranks = [float(place_of[p.player]) for p in lined]
    rated = MODEL.rate(teams, ranks=ranks)
    for placing, team in zip(lined, rated, strict=True):
        out[placing.player] = Rating(team[0].mu, team[0].sigma)
    return out


def ratings(results: Iterable[Result]) -> dict[Any, Rating]:
    """The ratings after ``results``, applied in the order given (the order of finishing)."""
    current: dict[Any, Rating] = {}
    for result in results:
        current = rate(current, result)
    return current
