"""The engine's hot paths (issue 15, target 7) give exactly what the plain reading of the rules
gives: the same legal commands in the same order, the same casinos, the same dice, and whole
games that replay to the very states and events the engine produced before they were made
fast (stored games must replay unchanged)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.lords_of_vegas import ENGINE, legal
from games.engines.lords_of_vegas.actions import joined
from games.engines.lords_of_vegas.board import (
    COMPANIES,
    DICE_PER_PLAYER,
    GAMBLE_PER_TILE,
    LOT_ORDER,
    LOTS,
    REMODEL_PRICE,
    RISER_PRICE,
    STRIP,
    TILES_PER_COMPANY,
    advance,
)
from games.engines.lords_of_vegas.casinos import (
    boss,
    casino_at,
    casinos,
    company,
    height,
    neighbours,
    points,
    resolve_ties,
    settle,
    snapshot,
    touches_strip,
)
from games.engines.lords_of_vegas.commands import (
    Build,
    Command,
    Gamble,
    Raise,
    Remodel,
    Reorganize,
    Sprawl,
)
from games.engines.lords_of_vegas.state import (
    HEIGHT,
    OWNER,
    PIP,
    copy_state,
    dice_on_board,
    empty_state,
    max_height,
    tiles_of,
)
from games.engines.lords_of_vegas.turn import payout
from games.engines.rng import SeededRng
from games.engines.selfplay import play_game

State = dict[str, Any]

PINNED = {
    ("2024", 5, "random"): (81, "8821a7685ee642c2c495d5452bd3b6c641015541eb0ada106e047a7561c457aa"),
    ("classic", 3, "greedy"): (
        64,
        "76a63cf94f1f99cd7f58aa33f6fae6624643dbd2de1cad696af30af15e7f2d74",
    ),
    ("2024", 2, "greedy"): (52, "0edba0125548d91fd4caa2c5a298ec1235873a1ec39670538b4901fd093b925b"),
}
"""Bot games played by the engine before the hot paths changed (commit b0a9b34): the number
of commands and a digest of every state and event list, setup included."""


@pytest.mark.parametrize(("edition", "players", "bot"), list(PINNED))
def test_a_game_replays_to_the_states_and_events_of_the_engine_before(edition, players, bot):
    options = ENGINE.normalize_options({"edition": edition}, players)
    record = play_game(
        ENGINE, players, options, f"pinned {edition} {players}", bot, rng_seed="pin", check=False
    )
    state, events = ENGINE.new_game(players, options, record.seed)
    digest = hashlib.sha256(json.dumps([state, events], sort_keys=True).encode())
    for seat, command in record.log:
        state, events = ENGINE.apply(state, seat, command)
        digest.update(json.dumps([state, events], sort_keys=True).encode())
    assert (len(record.log), digest.hexdigest()) == PINNED[(edition, players, bot)]


# -- the plain reading of legal_commands' actions, as it was written before -----------------


def plain_actions(state: State, seat: int, plain: bool = False) -> Iterator[Command]:
    money = state["money"][seat]
    free = {c: TILES_PER_COMPANY - tiles_of(state, c) for c in COMPANIES}
    movers: list[str | None] = [None]
    if dice_on_board(state, seat) >= DICE_PER_PLAYER:
        movers = (
            []
            if plain
            else sorted(lot for lot, tile in state["tiles"].items() if tile[OWNER] == seat)
        )
    for lot, owner in sorted(state["markers"].items()):
        if owner == seat and LOTS[lot].price <= money:
            for name in COMPANIES:
                if free[name] > 0:
                    for moving in movers:
                        yield Build(lot, name, moving)
    for casino in casinos(state):
        yield from plain_casino_actions(state, seat, casino, free, movers, plain)


def plain_casino_actions(state, seat, casino, free, movers, plain):
    money, tiles, first = state["money"][seat], state["tiles"], casino[0]
    chief, name, size = boss(state, casino), company(state, casino), len(casino)
    if chief == seat:
        riser = RISER_PRICE * (height(state, casino) - 1)
        for lot in sorted(neighbours(casino)):
            cost = 2 * LOTS[lot].price + riser
            if legal._open(state, lot) and free[name] > 0 and cost <= money:
                for moving in movers:
                    yield Sprawl(lot, first, moving)
        for other in COMPANIES:
            if other != name and free[other] >= size and REMODEL_PRICE * size <= money:
                yield Remodel(first, other)
        if height(state, casino) < max_height(state) and RISER_PRICE * size <= money:
            yield Raise(first)
    if plain:
        return
    dice = [lot for lot in casino if tiles[lot][OWNER] is not None]
    cost = sum(tiles[lot][PIP] for lot in dice)
    mine = any(tiles[lot][OWNER] == seat for lot in dice)
    if mine and not set(state["reorged"]).intersection(casino) and cost <= money:
        yield Reorganize(first)
    if chief is not None and chief != seat and not state["gambles"]:
        for amount in range(1, min(GAMBLE_PER_TILE * points(state, casino), money) + 1):
            yield Gamble(first, amount)


def flood_casinos(state: State, only: str | None = None) -> list[list[str]]:
    """Casinos found by flooding from every tile (the slow, obvious way)."""
    found: dict[str, list[str]] = {}
    for lot, tile in state["tiles"].items():
        if only is None or tile[0] == only:
            casino = casino_at(state, lot)
            assert casino is not None
            found[casino[0]] = casino
    return [found[first] for first in sorted(found, key=LOT_ORDER.__getitem__)]


games = st.tuples(
    st.sampled_from([("2024", n) for n in range(2, 7)] + [("classic", n) for n in range(2, 5)]),
    st.binary(min_size=8, max_size=8).map(bytes.hex),
    st.sampled_from(["random", "greedy"]),
)


@settings(max_examples=25, deadline=None)
@given(games)
def test_legal_commands_and_casinos_match_the_plain_reading_in_every_state(game):
    (edition, players), seed, bot = game
    options = ENGINE.normalize_options({"edition": edition}, players)
    record = play_game(ENGINE, players, options, seed, bot, rng_seed=seed, check=False)
    assert record.finished, record.violations
    state, _ = ENGINE.new_game(players, options, record.seed)
    for seat, command in [*record.log, (None, None)]:
        for someone in range(players):
            every = ENGINE.legal_commands(state, someone)
            assert every == list(_reference(state, someone))
            for verb in {*legal.VERBS, "move", "place", "layoff", "trade"}:
                of_verb = ENGINE.legal_commands_of(state, someone, verb)
                assert of_verb == [cmd for cmd in every if getattr(cmd, "kind", None) == verb], verb
        for plain in (False, True):
            assert legal.actions(state, state["turn"], plain) == list(
                plain_actions(state, state["turn"], plain)
            )
        assert casinos(state) == flood_casinos(state)
        for name in COMPANIES:
            assert casinos(state, only=name) == flood_casinos(state, only=name)
        if command is not None:
            state, _ = ENGINE.apply(state, seat, command)


def _reference(state: State, seat: int) -> Iterator[Command]:
    """legal_commands with the plain actions in place of the fast ones."""
    from games.engines.lords_of_vegas.commands import End
    from games.engines.lords_of_vegas.decisions import pending_for

    if state["over"] is not None:
        return
    decision = pending_for(state, seat)
    if decision is not None:
        yield from legal.answers(state, decision)
        return
    if state["pending"] or seat != state["turn"]:
        return
    yield from plain_actions(state, seat)
    yield End()


def test_each_call_returns_a_list_of_its_own():
    """Command objects are shared between calls (they are frozen), the lists are not: a bot
    or form that edits the list it got changes nothing for the next caller."""
    state, _ = ENGINE.new_game(4, {}, "a list of its own")
    seat = state["turn"]
    first = ENGINE.legal_commands(state, seat)
    assert first
    expected = list(first)
    first.clear()
    assert ENGINE.legal_commands(state, seat) == expected


def test_the_shared_commands_are_the_commands_built_afresh():
    """Clearing the shared command objects changes nothing a caller sees."""
    state, _ = ENGINE.new_game(3, {}, "shared commands")
    seat = state["turn"]
    warm = ENGINE.legal_commands(state, seat)
    legal._SHARED.clear()
    legal._BUILDS.clear()
    legal._GAMBLES.clear()
    cold = ENGINE.legal_commands(state, seat)
    assert cold == warm
    assert [type(c) for c in cold] == [type(c) for c in warm]


def test_dice_are_the_same_with_or_without_the_keyed_hashes_cached():
    from games.engines import rng

    warm = SeededRng("cache on and off", "move 3")
    first = [warm.die() for _ in range(20)]
    rng._keyed.cache_clear()
    cold = SeededRng("cache on and off", "move 3")
    assert [cold.die() for _ in range(20)] == first


# -- the turn's payout and the settling after an action, as they were written before ---------


def plain_snapshot(state: State) -> dict[str, tuple[int, int | None]]:
    shot = {}
    for number, casino in enumerate(flood_casinos(state)):
        chief = boss(state, casino)
        for lot in casino:
            shot[lot] = (number, chief)
    return shot


def plain_settle(state: State, before: dict[str, Any], rng: Any, events: list[Any]) -> None:
    after = flood_casinos(state)
    for casino in after:
        parts = {before[lot][0] for lot in casino if lot in before}
        if len(parts) > 1:
            events.append(
                {
                    "type": "merge",
                    "casino": casino,
                    "company": company(state, casino),
                    "height": height(state, casino),
                }
            )
    resolve_ties(state, rng, events, after)
    for casino in after:
        chief = boss(state, casino)
        previous = {before[lot][1] for lot in casino if lot in before}
        if previous != {chief} and (chief is not None or previous - {None}):
            events.append({"type": "boss", "casino": casino, "seat": chief})


def plain_payout(state: State, pays: str, events: list[Any]) -> None:
    totals = [0] * state["players"]
    for seat in state["markers"].values():
        totals[seat] += 1
    for seat, amount in enumerate(totals):
        if amount:
            state["money"][seat] += amount
            events.append({"type": "parking", "seat": seat, "amount": amount})
    paying = [
        casino
        for casino in flood_casinos(state)
        if (touches_strip(casino) if pays == STRIP else company(state, casino) == pays)
    ]
    for casino in paying:
        paid: dict[int, int] = {}
        for lot in casino:
            tile = state["tiles"][lot]
            if tile[OWNER] is not None:
                paid[tile[OWNER]] = paid.get(tile[OWNER], 0) + tile[PIP]
        for seat, amount in sorted(paid.items()):
            state["money"][seat] += amount
            events.append({"type": "paid", "seat": seat, "amount": amount, "casino": casino})
    for casino in sorted(paying, key=lambda c: points(state, c)):
        chief = boss(state, casino)
        if chief is None:
            continue
        gained = sum(int(state["tiles"][lot][HEIGHT]) for lot in casino)
        was = state["score"][chief]
        state["score"][chief] = advance(was, gained)
        events.append(
            {
                "type": "scored",
                "seat": chief,
                "casino": casino,
                "points": gained,
                "from": was,
                "to": state["score"][chief],
            }
        )


def _both(state: State, fast: Any, plain: Any) -> None:
    """Run ``fast`` and ``plain`` on copies of ``state``; same state and events after."""
    mine, theirs = copy_state(state), copy_state(state)
    events: list[Any] = []
    expected: list[Any] = []
    fast(mine, events)
    plain(theirs, expected)
    assert (mine, events) == (theirs, expected)


@settings(max_examples=25, deadline=None)
@given(games)
def test_payouts_and_settling_match_the_plain_reading_in_every_state(game):
    """Every company's payout and the Strip's, and the settling of each step of a game against
    the snapshot of the state before it (merges, tie rerolls, new bosses), as the code before
    the one-tile shortcuts, the counted points and the casinos handed from build to settle."""
    (edition, players), seed, bot = game
    options = ENGINE.normalize_options({"edition": edition}, players)
    record = play_game(ENGINE, players, options, seed, bot, rng_seed=seed, check=False)
    state, _ = ENGINE.new_game(players, options, record.seed)
    for n, (seat, command) in enumerate(record.log):
        for pays in (*COMPANIES, STRIP):
            _both(
                state,
                lambda s, out, pays=pays: payout(s, pays, out),
                lambda s, out, pays=pays: plain_payout(s, pays, out),
            )
        before = snapshot(state)
        assert before == plain_snapshot(state)
        new, _ = ENGINE.apply(state, seat, command)
        _settles_alike(new, before, f"settle {seed} {n}")
        for lot in set(new["tiles"]) - set(state["tiles"]):
            assert joined(new, before, lot, casinos(new)) == joined(new, before, lot)
        state = new


def _settles_alike(state: State, before: dict[str, Any], label: str) -> None:
    """settle, with or without the casinos handed to it, and the plain settle: same dice."""
    for handed in (False, True):
        _both(
            state,
            lambda s, out, handed=handed: settle(
                s, before, SeededRng("settle", label), out, casinos(s) if handed else None
            ),
            lambda s, out: plain_settle(s, before, SeededRng("settle", label), out),
        )


def test_a_one_tile_casinos_neighbours_are_its_lots_neighbours_sorted():
    for lot in LOT_ORDER:
        assert legal._AROUND[lot] == sorted(neighbours([lot]))


tile_on_board = st.tuples(
    st.sampled_from(COMPANIES[:2]),  # two companies, so that neighbours often join
    st.integers(1, 2),
    st.one_of(st.none(), st.integers(0, 3)),
    st.integers(1, 6),
).map(lambda t: [t[0], t[1], t[2], None if t[2] is None else t[3]])


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["2024", "classic"]),
    st.dictionaries(st.sampled_from(sorted(LOT_ORDER)), tile_on_board, max_size=24),
    st.data(),
)
def test_settling_matches_the_plain_reading_on_any_board(edition, tiles, data):
    """Boards no game may reach yet (dice gone from one-tile casinos, ties, merges of
    several casinos): settling against any earlier board of the same casinos reports what
    the code before reported. The earlier board keeps some of the tiles, with any dice."""
    state = empty_state(edition, ["black", "blue", "green", "purple"], "boards")
    state["tiles"] = tiles
    earlier = copy_state(state)
    for lot in sorted(tiles):
        if data.draw(st.booleans(), label=f"{lot} was there"):
            tile = earlier["tiles"][lot]
            tile[OWNER], tile[PIP] = data.draw(tile_on_board, label=lot)[2:]
        else:
            del earlier["tiles"][lot]
    before = snapshot(earlier)
    assert before == plain_snapshot(earlier)
    _settles_alike(state, before, "boards")
    for pays in (*COMPANIES[:2], STRIP):
        _both(
            state,
            lambda s, out, pays=pays: payout(s, pays, out),
            lambda s, out, pays=pays: plain_payout(s, pays, out),
        )
