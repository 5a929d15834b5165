"""Bot seats' commands: each bot draws its randomness from the game's seed and the move's
position, so a game replays to the same bot choices."""

from __future__ import annotations

from collections.abc import Sequence

from games.engines.base import Command, GameEngine, IllegalCommand, State
from games.engines.rng import SeededRng
from games.models import Game, Seat
from games.services.lookups import seats_by_order
from games.services.movelog import Entry

BOT_MOVES_PER_CALL = 2000
"""At most this many bot commands after one submission (a safety cap, far above a game)."""


def bot_command(engine: GameEngine, state: State, seat: Seat, seq: int, seed: str) -> Command:
    """The bot's choice (its own randomness derived from the seed and position), else the
    engine's default command should the bot pick something the engine refuses."""
    bot = engine.bots.get(seat.bot) or next(iter(engine.bots.values()))
    command = bot(state, seat.order, SeededRng(seed, f"bot {seq}"))
    if engine.trade_parties(state, seat.order, command) is not None:
        return engine.default_command(state, seat.order)
    return command


def play_bot_entries(
    engine: GameEngine,
    game: Game,
    state: State,
    limit: int = BOT_MOVES_PER_CALL,
    seats_read: Sequence[Seat] | None = None,
) -> tuple[State, list[Entry]]:
    """Let bot seats act while the game waits on one of them (capped at ``limit``)."""
    seats = seats_by_order(game) if seats_read is None else {s.order: s for s in seats_read}
    if not any(s.is_bot for s in seats.values()):
        return state, []
    entries: list[Entry] = []
    while len(entries) < limit and engine.outcome(state) is None:
        waiting = [seats[o] for o in engine.to_act(state) if o in seats and seats[o].is_bot]
        if not waiting:
            break
        seat = waiting[0]
        seq = game.version + len(entries) + 1
        command = bot_command(engine, state, seat, seq, game.seed)
        try:
            new_state, events = engine.apply(state, seat.order, command)
        except IllegalCommand:
            command = engine.default_command(state, seat.order)
            new_state, events = engine.apply(state, seat.order, command)
        entries.append(Entry(seat, command, engine.format(command), list(events), "bot"))
        state = new_state
    return state, entries
