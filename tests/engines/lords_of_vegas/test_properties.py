"""Properties over random games: invariants after every command, replay from the seed,
refused commands change nothing, positions round-trip, views hide the deck."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalCommand
from games.engines.lords_of_vegas import (
    ENGINE,
    End,
    describe_view,
    from_position,
    to_position,
)
from games.engines.rng import SeededRng

games = st.tuples(
    st.sampled_from([("2024", n) for n in range(2, 7)] + [("classic", n) for n in range(2, 5)]),
    st.binary(min_size=8, max_size=8).map(bytes.hex),
    st.sampled_from(["random", "random", "greedy"]),
    st.booleans(),
)

PROBES = [
    "build A2 sphinx",
    "build C5 vega",
    "sprawl A5 from A2",
    "remodel C1 tivoli",
    "reorganize B4",
    "raise C3",
    "gamble D4 3",
    "end",
    "move die C3",
    "place C3=2 C6=5",
    "layoff yes",
    "trade black pays blue 500",
]


def play_game(edition, players, seed, bot, askers):
    """Play a whole game with a bot, checking every property after every command."""
    state, _ = ENGINE.new_game(players, {"edition": edition}, seed)
    assert ENGINE.check_invariants(state) == []
    log = []
    rng = SeededRng(seed, "bot")
    if askers:
        for seat in range(players):
            for text in ("prefer place ask", "prefer layoff ask"):
                state, _ = ENGINE.apply(state, seat, ENGINE.parse(text))
                log.append((seat, text))
    while ENGINE.outcome(state) is None:
        probe_refusals(state, rng)
        if rng.randbelow(6) == 0:
            state = try_trade(state, rng, log)
            if ENGINE.outcome(state) is not None:
                break
        seat = ENGINE.to_act(state)[0]
        command = ENGINE.bots[bot](state, seat, rng)
        before = json.dumps(state, sort_keys=True)
        new, events = ENGINE.apply(state, seat, command)
        assert json.dumps(state, sort_keys=True) == before  # apply never mutates its input
        state = new
        assert all(ENGINE.describe(e, state["colours"]) for e in events)
        assert ENGINE.check_invariants(state) == [], ENGINE.format(command)
        log.append((seat, ENGINE.format(command)))
        assert len(log) < 3000
    return state, log


def random_trade(state, rng):
    """A trade of one to three steps drawn from what the players actually hold."""
    colours = state["colours"]
    steps = []
    for _ in range(1 + rng.randbelow(3)):
        kind = rng.randbelow(4)
        a, b = rng.randbelow(len(colours)), rng.randbelow(len(colours))
        if kind == 0:
            steps.append(f"{colours[a]} pays {colours[b]} {1 + rng.randbelow(8)}")
        elif kind == 1 and state["markers"]:
            lot = sorted(state["markers"])[rng.randbelow(len(state["markers"]))]
            giver = colours[state["markers"][lot]]
            steps.append(f"{giver} gives lot {lot} to {colours[b]}")
        elif kind == 2 and state["tiles"]:
            lot = sorted(state["tiles"])[rng.randbelow(len(state["tiles"]))]
            owner = state["tiles"][lot][2]
            giver = colours[owner if owner is not None else a]
            steps.append(f"{giver} gives die {lot} to {colours[b]}")
        else:
            actions = [c for c in ENGINE.legal_commands(state, state["turn"]) if c != End()]
            if actions:
                steps.append("do " + ENGINE.format(actions[rng.randbelow(len(actions))]))
    return "trade " + ", ".join(steps) if steps else None


def try_trade(state, rng, log):
    """Agreed trades keep every invariant; a refused one changes nothing."""
    text = random_trade(state, rng)
    if text is None:
        return state
    before = json.dumps(state, sort_keys=True)
    try:
        new, events = ENGINE.apply(state, None, ENGINE.parse(text))
    except IllegalCommand:
        assert json.dumps(state, sort_keys=True) == before
        return state
    assert ENGINE.check_invariants(new) == [], text
    assert of_kind(events, "trade_done") or of_kind(events, "trade_stopped")
    log.append((None, text))
    return new


def of_kind(events, kind):
    return [e for e in events if e["type"] == kind]


def probe_refusals(state, rng):
    """A command that is refused raises and leaves the state exactly as it was."""
    before = json.dumps(state, sort_keys=True)
    text = PROBES[rng.randbelow(len(PROBES))]
    seat = rng.randbelow(state["players"])
    with contextlib.suppress(IllegalCommand):
        ENGINE.apply(state, seat, ENGINE.parse(text))
    assert json.dumps(state, sort_keys=True) == before


@settings(max_examples=25, deadline=None)
@given(games)
def test_random_games_keep_every_invariant_and_replay_exactly(game):
    (edition, players), seed, bot, askers = game
    final, log = play_game(edition, players, seed, bot, askers)
    outcome = ENGINE.outcome(final)
    assert outcome is not None and len(outcome.placings) == players
    replayed, _ = ENGINE.new_game(players, {"edition": edition}, seed)
    for seat, text in log:
        replayed, _ = ENGINE.apply(replayed, seat, ENGINE.parse(text))
    assert replayed == final
    assert len(json.dumps(final)) < 16_000
    assert json.loads(json.dumps(final)) == final  # plain JSON: no tuples, no sets
    assert json.loads(json.dumps(ENGINE.view(final, 0))) == ENGINE.view(final, 0)
    assert from_position(to_position(final)) == final


@settings(max_examples=10, deadline=None)
@given(games)
def test_positions_views_and_texts_mid_game(game):
    (edition, players), seed, _, _ = game
    state, _ = ENGINE.new_game(players, {"edition": edition}, seed)
    rng = SeededRng(seed, "bot")
    for _ in range(40):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.bots["random"](state, seat, rng))
        assert from_position(to_position(state)) == state
        view = ENGINE.view(state, seat)
        assert "seed" not in view and "deck" not in view
        assert view["deck_left"] == len(state["deck"])
        text = ENGINE.render_text(view)
        assert max(len(line) for line in text.splitlines()) <= 80
        assert describe_view(view).startswith("- ")
        for command in ENGINE.legal_commands(state, seat)[:30]:
            assert ENGINE.parse(ENGINE.format(command)) == command
