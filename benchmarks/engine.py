"""Engine benchmarks: apply() per command, replay of a whole game, bot games per second and
the size of a late-game state, for every engine of the registry that imports.

    python benchmarks/engine.py            # 30 games per engine and player count
    python benchmarks/engine.py --quick    # 5 games, one replay pass (a smoke run)
    python benchmarks/engine.py --policy playthrough --against /tmp/lords-before

``--policy playthrough`` plays Lords of Vegas with the policy of the playthrough test of the
TypeScript engine ericp0236/lords-of-vegas (see :func:`playthrough_game`) instead; with
``--against`` it plays the same games with the engine of another checkout too (a git worktree
of the commit before a change), both in fresh processes, interleaved, and prints new / old.

Absolute times depend on the machine, so the same run also times two baselines:
``json.loads(json.dumps(state))`` of the very states the engine produced (what the platform
pays anyway to store a snapshot) and a fixed pure-Python loop. The ratios to them are what to
compare between machines. No test asserts any of these figures; see benchmarks/README.md for
the targets. The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# A worker process (``--root=<checkout>``, started by ``--against``) measures the engine of the
# checkout it names, so that path must come first before ``games`` is imported.
sys.path.insert(
    0,
    next(
        (arg.split("=", 1)[1] for arg in sys.argv if arg.startswith("--root=")),
        str(Path(__file__).resolve().parent.parent),
    ),
)

from games.engines import registry
from games.engines.base import GameEngine, State
from games.engines.selfplay import GameRecord, game_seed, play_game

ROOT = Path(__file__).resolve().parent.parent
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


# -- the playthrough policy ---------------------------------------------------------------

PLAYTHROUGH_SEED = "playthrough"
PLAYTHROUGH_PLAN = (("build", 0.25), ("reorganize", 0.10), ("gamble", 0.10))
"""Per turn of the active seat, each tried with its probability, in this order, then end."""
PLAYTHROUGH_MAX_COMMANDS = 20_000


def _picks(verb: str, legal: list[Any]) -> list[Any]:
    """The legal commands a verb of the plan may pick: any build or reorganize, a $1m bet."""
    if verb == "gamble":
        return [cmd for cmd in legal if cmd.kind == "gamble" and cmd.amount == 1]
    return [cmd for cmd in legal if cmd.kind == verb]


def playthrough_game(
    engine: GameEngine, game: int, per_verb: bool = False
) -> tuple[int, float, float, str]:
    """One Lords of Vegas game with the policy of ericp0236/lords-of-vegas's playthrough test.

    3 to 6 players (2024 edition). On each turn the active seat tries a random legal build with
    probability 0.25, then a random legal reorganize with 0.10, then a random legal $1m gamble
    with 0.10, then ends the turn. A decision the engine asks for in between (a die or lot
    marker to move, rerolled dice to place, a lay-off) is answered with the engine's
    ``default_command``. Every choice comes from ``random.Random`` seeded with the game number,
    so two checkouts whose engines agree play the very same games.

    The random legal command is drawn from ``legal_commands`` filtered by verb, or with
    ``per_verb`` from the engine's ``legal_commands_of(state, seat, verb)`` when it has one
    (the same commands in the same order, so the same games).

    Returns the commands applied, the seconds of the whole loop, the seconds spent inside the
    engine's calls, and a digest of the final state (to check that both sides agree).
    """
    of_verb = getattr(engine, "legal_commands_of", None) if per_verb else None
    rng = random.Random(f"{PLAYTHROUGH_SEED} {game}")
    players = rng.randint(3, 6)
    clock = time.perf_counter
    start = clock()
    state, _ = engine.new_game(players, {}, game_seed(PLAYTHROUGH_SEED, game))
    inside = clock() - start
    commands = 0
    plan: list[str] | None = None
    while True:
        t0 = clock()
        over = engine.outcome(state) is not None
        seat = engine.to_act(state)[0] if not over else 0
        inside += clock() - t0
        if over:
            break
        if commands >= PLAYTHROUGH_MAX_COMMANDS:
            raise SystemExit(f"playthrough game {game} is stuck after {commands} commands")
        t0 = clock()
        if state["pending"]:
            command = engine.default_command(state, seat)
            inside += clock() - t0
        else:
            inside += clock() - t0
            if plan is None:
                plan = [verb for verb, chance in PLAYTHROUGH_PLAN if rng.random() < chance]
            picked: Any = None
            while plan and picked is None:
                verb = plan.pop(0)
                t0 = clock()
                if of_verb is None:
                    legal = engine.legal_commands(state, seat)
                else:
                    legal = of_verb(state, seat, verb)
                inside += clock() - t0
                choices = _picks(verb, legal)
                if choices:
                    picked = choices[rng.randrange(len(choices))]
            if picked is None:
                t0 = clock()
                picked = engine.default_command(state, seat)  # end the turn
                inside += clock() - t0
                plan = None
            command = picked
        t0 = clock()
        state, _ = engine.apply(state, seat, command)
        inside += clock() - t0
        commands += 1
    seconds = clock() - start
    digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()
    return commands, seconds, inside, digest


def playthrough_worker(games: int, per_verb: bool = False) -> dict[str, Any]:
    """Play ``games`` playthrough games with this process's engine; one JSON-ready dict."""
    engine = registry.get_engine("lords-of-vegas")
    cpu = time.process_time()
    rows = [playthrough_game(engine, g, per_verb) for g in range(games)]
    cpu = time.process_time() - cpu
    return {
        "games": games,
        "cpu_seconds": cpu,
        "commands": sum(r[0] for r in rows),
        "seconds": sum(r[1] for r in rows),
        "engine_seconds": sum(r[2] for r in rows),
        "game_ms": [round(r[1] * 1000, 3) for r in rows],
        "digest": hashlib.sha256("".join(r[3] for r in rows).encode()).hexdigest(),
    }


def _worker_command(root: Path, games: int, per_verb: bool) -> list[str]:
    return [
        sys.executable, str(Path(__file__).resolve()), "--policy", "playthrough",
        "--worker", f"--root={root}", "--games", str(games),
        *(["--per-verb"] if per_verb else []),
    ]  # fmt: skip


def _run_worker(root: Path, games: int, per_verb: bool) -> dict[str, Any]:
    done = subprocess.run(
        _worker_command(root, games, per_verb), capture_output=True, text=True, check=True, cwd=root
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def callgrind_instructions(root: Path, games: int, per_verb: bool) -> int | None:
    """Instructions the worker of ``root`` executes for ``games`` games, less those of a worker
    that plays none (start-up and imports): a figure the machine's load does not move."""
    if shutil.which("valgrind") is None:
        return None

    def count(n: int) -> int:
        out = Path(f"/tmp/callgrind.bench.{os.getpid()}")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             *_worker_command(root, n, per_verb)],
            capture_output=True, text=True, check=True, cwd=root,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # fmt: skip
        out.unlink(missing_ok=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"callgrind printed no total: {done.stderr[-500:]}")
        return int(found.group(1))

    return count(games) - count(0)


def playthrough_compare(
    against: Path | None, games: int, repeats: int, callgrind_games: int, per_verb: bool = False
) -> dict[str, Any]:
    """Each side ``repeats`` times, the order alternating between rounds so that load affects
    both alike; medians of the totals, the ratio new / old, and the paired ratios' median."""
    sides = {"new": ROOT} if against is None else {"new": ROOT, "old": against.resolve()}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
    for r in range(repeats):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            runs[name].append(_run_worker(sides[name], games, per_verb))
    summary: dict[str, Any] = {
        "games": games,
        "repeats": repeats,
        "per_verb": per_verb,
        "load": os.getloadavg(),
    }
    for name, results in runs.items():
        digests = {res["digest"] for res in results}
        first = results[0]
        summary[name] = {
            "root": str(sides[name]),
            "commands_per_game": round(first["commands"] / games, 1),
            "ms_per_game": round(
                statistics.median(res["seconds"] for res in results) * 1000 / games, 3
            ),
            "engine_ms_per_game": round(
                statistics.median(res["engine_seconds"] for res in results) * 1000 / games, 3
            ),
            "us_per_command": round(
                statistics.median(res["seconds"] for res in results) * 1e6 / first["commands"], 2
            ),
            "cpu_ms_per_game": round(
                statistics.median(res["cpu_seconds"] for res in results) * 1000 / games, 3
            ),
            "runs_ms_per_game": [round(res["seconds"] * 1000 / games, 3) for res in results],
            "digest": first["digest"] if len(digests) == 1 else "differs between runs",
        }
    if against is not None:
        new, old = summary["new"], summary["old"]
        if new["digest"] != old["digest"]:
            raise SystemExit("the two checkouts did not play the same games: their engines differ")
        summary["ratio"] = round(new["ms_per_game"] / old["ms_per_game"], 3)
        summary["cpu_ratio"] = round(new["cpu_ms_per_game"] / old["cpu_ms_per_game"], 3)
        summary["engine_ratio"] = round(new["engine_ms_per_game"] / old["engine_ms_per_game"], 3)
        paired = [
            a["seconds"] / b["seconds"] for a, b in zip(runs["new"], runs["old"], strict=True)
        ]
        summary["paired_ratio_median"] = round(statistics.median(paired), 3)
        if callgrind_games:
            ir = {
                name: callgrind_instructions(root, callgrind_games, per_verb)
                for name, root in sides.items()
            }
            summary["callgrind"] = {"games": callgrind_games, **ir}
            if ir["new"] and ir["old"]:
                summary["callgrind_ratio"] = round(ir["new"] / ir["old"], 3)
    summary["load_after"] = os.getloadavg()
    return summary


def print_playthrough(summary: dict[str, Any]) -> None:
    load = " ".join(f"{x:.2f}" for x in summary["load"])
    after = " ".join(f"{x:.2f}" for x in summary["load_after"])
    how = "legal_commands_of per verb" if summary["per_verb"] else "legal_commands"
    print(f"playthrough policy ({how}), {summary['games']} games x {summary['repeats']} runs "
          f"(load average {load} before, {after} after)")  # fmt: skip
    print("side  cmd/game   ms/game  engine ms/game  cpu ms/game  us/command  runs ms/game")
    for name in ("new", "old"):
        if name in summary:
            row = summary[name]
            runs = ", ".join(f"{x:.2f}" for x in row["runs_ms_per_game"])
            print(
                f"{name:<5} {row['commands_per_game']:>8} {row['ms_per_game']:>9.2f} "
                f"{row['engine_ms_per_game']:>15.2f} {row['cpu_ms_per_game']:>12.2f} "
                f"{row['us_per_command']:>11.2f}  {runs}"
            )
    if "ratio" in summary:
        print(
            f"new / old: {summary['ratio']} (engine calls only {summary['engine_ratio']}, "
            f"median of paired runs {summary['paired_ratio_median']}; process CPU time "
            f"{summary['cpu_ratio']}); target <= 0.7"
        )
    if "callgrind_ratio" in summary:
        cg = summary["callgrind"]
        print(f"callgrind, {cg['games']} games: {cg['new']:,} / {cg['old']:,} instructions = "
              f"{summary['callgrind_ratio']}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 games, one replay pass")
    parser.add_argument("--games", type=int, help="games per engine and player count")
    parser.add_argument(
        "--policy",
        choices=["random", "playthrough"],
        default="random",
        help="random bots (default) or the playthrough policy (Lords of Vegas)",
    )
    parser.add_argument("--against", type=Path, help="playthrough: another checkout to compare")
    parser.add_argument("--repeats", type=int, default=5, help="playthrough: runs per side")
    parser.add_argument(
        "--callgrind",
        type=int,
        default=0,
        metavar="GAMES",
        help="playthrough: also count instructions of GAMES games per side",
    )
    parser.add_argument(
        "--per-verb",
        action="store_true",
        help="playthrough: ask the engine's legal_commands_of(state, seat, verb) where it has one",
    )
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.policy == "playthrough":
        games = args.games if args.games is not None else (20 if args.quick else 200)
        if args.worker:
            print(json.dumps(playthrough_worker(games, args.per_verb)))
            return 0
        repeats = 1 if args.quick else args.repeats
        summary = playthrough_compare(args.against, games, repeats, args.callgrind, args.per_verb)
        print_playthrough(summary)
        print(json.dumps(summary))
        return 0
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
