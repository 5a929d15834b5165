"""Engine benchmarks: apply() per command, replay of a whole game, bot games per second and
the size of a late-game state, for every engine of the registry that imports.

    python benchmarks/engine.py            # 30 games per engine and player count
    python benchmarks/engine.py --quick    # 5 games, one replay pass (a smoke run)

Absolute times depend on the machine, so the same run also times two baselines:
``json.loads(json.dumps(state))`` of the very states the engine produced (what the platform
pays anyway to store a snapshot) and a fixed pure-Python loop. The ratios to them are what to
compare between machines. No test asserts any of these figures; see benchmarks/README.md for
the targets. The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import registry
from games.engines.base import GameEngine, State
from games.engines.selfplay import GameRecord, game_seed, play_game

PLAYER_COUNTS = (2, 4, 6)
LATE = 0.9
"""States after 90% of a game's commands count as late-game."""

TARGETS = {"replay_ms_lords_of_vegas_4p": 10.0, "apply_p50_us": 50.0, "late_state_kb": 16.0}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def python_loop_ms() -> float:
    """A fixed pure-Python workload (best of 5): the machine's speed, in one number."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return best * 1000


def player_counts(engine: GameEngine) -> list[int]:
    """2, 4 and 6 players, each clamped into the engine's range (Vegas: 2, 4, 5)."""
    low, high = engine.min_players, engine.max_players
    return sorted({min(max(p, low), high) for p in PLAYER_COUNTS})


def record_games(engine: GameEngine, players: int, games: int) -> tuple[list[GameRecord], float]:
    """Complete random-bot games (no invariant checks, so that only play is timed)."""
    options = engine.normalize_options({}, players)
    start = time.perf_counter()
    records = [
        play_game(engine, players, options, game_seed("bench", g), "random",
                  rng_seed="bench", game=g, check=False)
        for g in range(games)
    ]  # fmt: skip
    elapsed = time.perf_counter() - start
    broken = [v for r in records for v in r.violations]
    if broken:
        raise SystemExit(f"{engine.slug} {players}p: a benchmark game went wrong: {broken[0]}")
    return records, elapsed


def replay(engine: GameEngine, record: GameRecord) -> tuple[float, list[float], list[State]]:
    """Replay one game from its log: total ms, each apply() in us, and every state."""
    applies: list[float] = []
    start = time.perf_counter_ns()
    state, _ = engine.new_game(record.players, record.options, record.seed)
    states = [state]
    for seat, command in record.log:
        before = time.perf_counter_ns()
        state, _ = engine.apply(state, seat, command)
        applies.append((time.perf_counter_ns() - before) / 1000)
        states.append(state)
    total_ms = (time.perf_counter_ns() - start) / 1e6
    if state != record.state:
        raise SystemExit(f"{engine.slug}: the replay of {record.seed[:12]} differs from the game")
    return total_ms, applies, states


def json_round_trip_us(states: list[State]) -> list[float]:
    times = []
    for state in states:
        before = time.perf_counter_ns()
        json.loads(json.dumps(state))
        times.append((time.perf_counter_ns() - before) / 1000)
    return times


def measure(engine: GameEngine, players: int, games: int, passes: int) -> dict[str, Any]:
    records, play_seconds = record_games(engine, players, games)
    replay_ms: list[float] = []
    applies: list[float] = []
    late_kb = 0.0
    visited: list[State] = []
    for record in records:
        for _ in range(passes):
            total, times, states = replay(engine, record)
            replay_ms.append(total)
            applies.extend(times)
        visited.extend(states[1:])
        late = states[int(LATE * (len(states) - 1)) :]
        late_kb = max(late_kb, max(len(json.dumps(s)) for s in late) / 1024)
    json_us = json_round_trip_us(visited)
    apply_p50 = statistics.median(applies)
    return {
        "game": engine.slug,
        "players": players,
        "games": games,
        "commands_per_game": round(sum(len(r.log) for r in records) / games, 1),
        "bot_games_per_second": round(games / play_seconds, 1),
        "apply_p50_us": round(apply_p50, 1),
        "apply_p99_us": round(percentile(applies, 0.99), 1),
        "replay_ms_median": round(statistics.median(replay_ms), 2),
        "late_state_kb": round(late_kb, 2),
        "json_round_trip_p50_us": round(statistics.median(json_us), 1),
        "apply_over_json": round(apply_p50 / statistics.median(json_us), 2),
    }


COLUMNS = [
    ("game", "game", 15),
    ("players", "pl", 3),
    ("commands_per_game", "cmd/game", 9),
    ("bot_games_per_second", "games/s", 9),
    ("apply_p50_us", "apply p50", 10),
    ("apply_p99_us", "p99 us", 9),
    ("replay_ms_median", "replay ms", 10),
    ("late_state_kb", "state KB", 9),
    ("json_round_trip_p50_us", "json us", 8),
    ("apply_over_json", "x json", 7),
]


def table(rows: list[dict[str, Any]]) -> str:
    def line(cells: list[str]) -> str:
        return " ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, (_, _, w)) in enumerate(zip(cells, COLUMNS, strict=True))
        )

    out = [line([title for _, title, _ in COLUMNS])]
    out.extend(line([str(row[key]) for key, _, _ in COLUMNS]) for row in rows)
    return "\n".join(out)


def verdicts(rows: list[dict[str, Any]]) -> dict[str, bool | None]:
    """Each README target: met, missed, or None when nothing measured it."""
    lov4 = [r for r in rows if r["game"] == "lords-of-vegas" and r["players"] == 4]
    return {
        "replay_ms_lords_of_vegas_4p": (
            lov4[0]["replay_ms_median"] < TARGETS["replay_ms_lords_of_vegas_4p"] if lov4 else None
        ),
        "apply_p50_us": all(r["apply_p50_us"] < TARGETS["apply_p50_us"] for r in rows),
        "late_state_kb": all(r["late_state_kb"] < TARGETS["late_state_kb"] for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 games, one replay pass")
    parser.add_argument("--games", type=int, help="games per engine and player count")
    args = parser.parse_args(argv)
    games = args.games or (5 if args.quick else 30)
    passes = 1 if args.quick else 3
    loop_ms = python_loop_ms()
    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for slug in registry.slugs():
        try:
            engine = registry.get_engine(slug)
        except (ImportError, LookupError, AttributeError) as error:
            skipped[slug] = f"{type(error).__name__}: {error}"
            print(f"skipped {slug}: it does not import ({skipped[slug]})")
            continue
        for players in player_counts(engine):
            row = measure(engine, players, games, passes)
            row["replay_over_loop"] = round(row["replay_ms_median"] / loop_ms, 3)
            rows.append(row)
    print(table(rows))
    print(f"baseline: pure-Python loop {loop_ms:.1f} ms; 'x json' = apply p50 / json round trip")
    met = verdicts(rows)
    for name, ok in met.items():
        status = "not measured" if ok is None else ("met" if ok else "MISSED")
        print(f"target {name} < {TARGETS[name]:g}: {status}")
    summary = {
        "python_loop_ms": round(loop_ms, 2),
        "games_per_setting": games,
        "results": rows,
        "skipped": skipped,
        "targets": TARGETS,
        "targets_met": met,
        "python": sys.version.split()[0],
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
