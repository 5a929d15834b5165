"""Bot games played to the end through the engine protocol only, checking every state.

Used by ``manage.py selfplay`` (a thin door onto :func:`play`) and by the benchmarks. Pure like
the engines: no Django and no clock of its own (the import-linter contract forbids ``time``
here), so whoever wants rates passes ``clock`` (e.g. ``time.perf_counter``).

Everything is derived from the one ``seed`` given: the seed of game ``g`` and the rng a bot
seat draws its choice from at command ``n`` of that game. Two runs with the same arguments play
the same games.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Command, GameEngine, IllegalCommand, State
from games.engines.rng import SeededRng

MAX_COMMANDS = 5_000
"""A game that has not ended after this many commands is stuck (a Lords of Vegas game takes a
few hundred, Vegas about a hundred)."""

KEEP_MESSAGES = 5


def game_seed(seed: int | str, game: int) -> str:
    """The secret seed of game ``game`` of a run: a hash, so neighbouring runs do not overlap."""
    return hashlib.sha256(f"selfplay {seed} / game {game}".encode()).hexdigest()


def bot_rng(seed: int | str, game: int, move: int) -> SeededRng:
    """What a bot seat draws its own choices from (never the game's own source)."""
    return SeededRng(str(seed), f"bot game {game} move {move}")


@dataclass
class GameRecord:
    """One bot game: its seed, every (seat, command) applied, the last state, what went wrong."""

    seed: str
    players: int
    options: Mapping[str, Any]
    log: list[tuple[int | None, Command]] = field(default_factory=list)
    state: State = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return not self.violations and bool(self.state)


def play_game(
    engine: GameEngine,
    players: int,
    options: Mapping[str, Any],
    seed: str,
    bot: str = "random",
    *,
    rng_seed: int | str = 0,
    game: int = 0,
    check: bool = True,
    max_commands: int = MAX_COMMANDS,
) -> GameRecord:
    """Play one game with ``bot`` in every seat until the engine reports an outcome.

    With ``check`` the invariants and JSON round trip are verified after setup and after every
    command; the first broken one ends the game (later states would only repeat it)."""
    choose = engine.bots[bot]
    state, _ = engine.new_game(players, options, seed)
    record = GameRecord(seed=seed, players=players, options=options, state=state)
    if check and _check(engine, record, state, "after setup"):
        return record
    while engine.outcome(state) is None:
        if len(record.log) >= max_commands:
            record.violations.append(f"game {seed[:12]} is stuck: no end after {max_commands}")
            return record
        where = f"game {seed[:12]} command {len(record.log) + 1}"
        try:
            step = _next_command(engine, state, choose, bot_rng(rng_seed, game, len(record.log)))
        except Exception as error:  # an engine bug: report it, do not stop the run
            record.violations.append(f"{where}: the bot crashed: {error!r}")
            return record
        if isinstance(step, str):
            record.violations.append(f"{where}: {step}")
            return record
        seat, command = step
        try:
            state, _ = engine.apply(state, seat, command)
        except IllegalCommand as error:
            record.violations.append(f"{where} ({command!r} by seat {seat}) was refused: {error}")
            return record
        except Exception as error:
            record.violations.append(f"{where} ({command!r} by seat {seat}) crashed: {error!r}")
            return record
        record.log.append((seat, command))
        record.state = state
        if check and _check(engine, record, state, f"after command {len(record.log)}"):
            return record
    return record


def _next_command(
    engine: GameEngine, state: State, choose: Callable[..., Command], rng: SeededRng
) -> tuple[int | None, Command] | str:
    """The first seat waited for picks; a trade a bot proposes is applied as agreed by all
    (``seat=None``), which is what the platform does once every party accepts."""
    waiting = engine.to_act(state)
    if not waiting:
        return "the game waits for nobody but has no outcome"
    seat = waiting[0]
    command = choose(state, seat, rng)
    if engine.trade_parties(state, seat, command) is not None:
        return None, command
    return seat, command


def _check(engine: GameEngine, record: GameRecord, state: State, where: str) -> bool:
    """Record every broken invariant of ``state``; True when there was one."""
    try:
        problems = list(engine.check_invariants(state))
    except Exception as error:
        problems = [f"check_invariants crashed: {error!r}"]
    try:
        if json.loads(json.dumps(state)) != state:
            problems.append("the state does not survive a JSON round trip")
    except (TypeError, ValueError) as error:
        problems.append(f"the state is not JSON-serialisable: {error}")
    for problem in problems:
        record.violations.append(f"game {record.seed[:12]} {where}: {problem}")
    return bool(problems)


def play(
    engine: GameEngine,
    players: int,
    options: Mapping[str, Any],
    games: int,
    seed: int | str,
    bot: str = "random",
    *,
    max_commands: int = MAX_COMMANDS,
    clock: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """Play ``games`` bot games and return the figures as a JSON-ready dict.

    ``invariant_violations`` counts games with a broken invariant, a refused bot command or no
    end within ``max_commands``; ``violations`` shows the first few messages. Rates are
    ``None`` without a ``clock``. Raises ``InvalidOptions`` / ``KeyError`` for bad arguments
    before any game starts."""
    checked = engine.normalize_options(options, players)
    if bot not in engine.bots:
        raise KeyError(f"unknown bot {bot!r}; {engine.slug} has {', '.join(engine.bots)}")
    started = clock() if clock else 0.0
    commands = finished = violated = 0
    messages: list[str] = []
    wins = [0] * players
    for g in range(games):
        record = play_game(
            engine, players, checked, game_seed(seed, g), bot,
            rng_seed=seed, game=g, max_commands=max_commands,
        )  # fmt: skip
        commands += len(record.log)
        if record.violations:
            violated += 1
            messages.extend(record.violations[: KEEP_MESSAGES - len(messages)])
            continue
        finished += 1
        outcome = engine.outcome(record.state)
        for winner in outcome.winners if outcome else ():
            wins[winner] += 1
    seconds = (clock() - started) if clock else None
    return {
        "game": engine.slug,
        "players": players,
        "options": checked,
        "bot": bot,
        "seed": seed,
        "games": games,
        "finished": finished,
        "commands": commands,
        "invariant_violations": violated,
        "violations": messages,
        "wins_by_seat": wins,
        "seconds": None if seconds is None else round(seconds, 3),
        "games_per_second": _rate(games, seconds),
        "commands_per_second": _rate(commands, seconds),
    }


def _rate(count: int, seconds: float | None) -> float | None:
    if seconds is None:
        return None
    return round(count / seconds, 1) if seconds > 0 else float(count)
