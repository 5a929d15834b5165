"""Properties of the standings and the rating (pure functions, no database)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from leagues import pairing, standings
from leagues.standings import Placing, Result


@st.composite
def games(draw: st.DrawFn, players: int | None = None) -> Result:
    """A finished game of 2-6 distinct players with any ranks and resignations."""
    n = players or draw(st.integers(2, 6))
    who = draw(st.lists(st.integers(1, 40), min_size=n, max_size=n, unique=True))
    ranks = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    resigned = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    placings = tuple(Placing(p, r, q) for p, r, q in zip(who, ranks, resigned, strict=True))
    return Result(game_id=draw(st.integers(1, 10_000)), placings=placings)


@given(st.integers(2, 6).flatmap(lambda n: st.tuples(st.just(n), games(n))))
def test_every_game_of_n_players_hands_out_the_same_points(case: tuple[int, Result]) -> None:
    n, result = case
    got = standings.points(result.placings)
    assert sum(got.values()) == Fraction(n * (n - 1), 2)
    assert all(0 <= p <= n - 1 for p in got.values())


@given(games())
def test_a_resigned_player_never_scores_more_than_one_who_did_not(result: Result) -> None:
    got = standings.points(result.placings)
    stayed = [got[p.player] for p in result.placings if not p.resigned]
    left = [got[p.player] for p in result.placings if p.resigned]
    if stayed and left:
        assert min(stayed) >= max(left)


@given(st.lists(games(), max_size=12), st.randoms(use_true_random=False))
def test_the_table_is_a_total_order_whatever_the_order_of_games(
    results: list[Result], rnd: random.Random
) -> None:
    table = standings.standings(results)
    shuffled = list(results)
    rnd.shuffle(shuffled)
    again = standings.standings(shuffled)
    assert [r.player for r in table] == [r.player for r in again]
    assert len({r.player for r in table}) == len(table)
    for before, after in itertools.pairwise(table):
        assert before.key() <= after.key()
        assert before.position <= after.position
        assert (before.position == after.position) == (before.key() == after.key())
    assert sum(r.played for r in table) == sum(len(g.placings) for g in results)


@given(st.lists(games(), max_size=8), st.randoms(use_true_random=False))
def test_the_rating_never_raises_and_ignores_seat_numbering(
    results: list[Result], rnd: random.Random
) -> None:
    rated = standings.ratings(results)
    relabelled = []
    for result in results:
        placings = list(result.placings)
        rnd.shuffle(placings)  # the same players and ranks, seated otherwise
        relabelled.append(Result(result.game_id, tuple(placings)))
    again = standings.ratings(relabelled)
    assert rated.keys() == again.keys()
    for player, rating in rated.items():
        assert abs(rating.mu - again[player].mu) < 1e-9
        assert abs(rating.sigma - again[player].sigma) < 1e-9


@given(games())
def test_a_sole_winner_rises_and_a_sole_loser_falls(result: Result) -> None:
    groups = standings.ordered(result.placings)
    rated = standings.rate({}, result)
    if len(groups) > 1 and len(groups[0]) == 1:
        assert rated[groups[0][0].player].ordinal > standings.DEFAULT.ordinal
    if len(groups) > 1 and len(groups[-1]) == 1:
        assert rated[groups[-1][0].player].mu < standings.DEFAULT.mu


@given(st.integers(2, 14), st.text(min_size=1, max_size=8))
def test_the_round_robin_meets_every_pair_once(n: int, seed: str) -> None:
    rounds = pairing.schedule(list(range(n)), per_game=2, rounds=1, seed=seed)
    pairs = [frozenset(g) for games in rounds for g in games]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for games_of_a_round in rounds:
        seated = [p for g in games_of_a_round for p in g]
        assert len(seated) == len(set(seated))


@given(st.integers(2, 30), st.integers(3, 6))
def test_groups_are_even_and_hold_everyone(n: int, size: int) -> None:
    (dealt,) = pairing.schedule(list(range(n)), per_game=size, rounds=1, seed="s")
    sizes = [len(g) for g in dealt]
    assert sorted(p for g in dealt for p in g) == list(range(n))
    assert max(sizes) - min(sizes) <= 1
    assert max(sizes) <= size and min(sizes) >= 2
