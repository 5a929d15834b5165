#!/usr/bin/env python3
"""Benchmark of the turn emails: committed moves -> the outbox -> a real Celery worker -> a
local SMTP server, in emails per second; and what a move pays for its notifications in the
web request (the outbox row, a clause of the move's one write), beside a bare ``SELECT 1``
measured in the same run.

    .venv/bin/python benchmarks/turn_emails.py          # about 2 minutes, prints a table + JSON

What it does, talking only to 127.0.0.1:

1. Recreates the database ``BENCH_DB`` (default ``lords_email_bench``, PostgreSQL at
   ``PG_URL``) and migrates it. Celery uses the Redis database ``REDIS_URL`` (default db
   12) through queues named for this run, removed at the end.
2. Sets up, through the service functions (the ORM, in this process, tasks not eager, as in
   production): ``USERS`` people with email addresses (English, French and Italian, several
   time zones, turn emails on: no preference row, the default) and ``GAMES`` started games,
   three Vegas for one Lords of Vegas, 2-4 people each. The announcements of the setup
   (joins, starts) are deleted: only the emails of moves are measured.
3. Starts an SMTP server (aiosmtpd, a process of its own) that writes one line per message
   received (time, Message-ID), and a real worker, ``celery -A lords worker`` (prefork,
   the project's settings: two processes per core, acks late, prefetch 1; ``CONCURRENCY``
   sets another number of processes) on Redis. This
   process plays Celery beat: it sends ``games.tasks.announce_moves`` every
   ``ANNOUNCE_EVERY_SECONDS`` (default 2) with beat's expiry (five periods), and
   ``notifications.tasks.send_due`` every 30 s.
4. Live: one move in every game (the seat to act plays its first legal command) through
   ``games.services.submit_command``, which writes the ``Announcement`` row in the move's
   transaction, while the ticks drain it. Emails per second = emails received / (last email
   received - first move committed). Moves are committed by this one process, so this
   figure cannot exceed the rate of moves (also shown).
5. Backlog: a second move in every game, committed with no tick running (the outbox fills),
   then the ticks resume: emails per second = emails received / (last email - first tick).
   That is what the worker can do, whatever the move rate. Per stage (from the rows): the
   first tick to the last ``Notification`` stored, and the SMTP reception span.
6. Every Notification must end ``sent`` and every Message-ID reach the server (no loss),
   none twice (no crash here).
7. The request's part: the move's one write (``rows.one_trip``: a game and a seat here)
   without and with the outbox row (``hooks.announce_after_commit``), alternating,
   ``REQUEST_SAMPLES`` times each inside one transaction (rolled back), beside a bare
   ``SELECT 1`` and a broker publish (what a move paid before the outbox): medians; the
   row's price is the difference, in wall time and in this process's CPU.

Targets (documented, not asserted): >= 200 emails/s (backlog and live, where the move rate
allows); the outbox part of a move <= 0.3 ms.

Environment knobs: PG_URL, BENCH_DB, REDIS_URL, GAMES (default 600), USERS (300),
CONCURRENCY (the settings': 2 per core), ANNOUNCE_EVERY_SECONDS, REQUEST_SAMPLES (2000),
SMTP_PORT.

Figures: ``benchmarks/README.md`` ("Turn emails").
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # (run by its path: the project's packages)

PG_URL = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432").rstrip("/")
BENCH_DB = os.environ.get("BENCH_DB", "lords_email_bench")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12")
GAMES = int(os.environ.get("GAMES", "600"))
USERS = int(os.environ.get("USERS", "300"))
CONCURRENCY = os.environ.get("CONCURRENCY")
"""Worker processes; unset: the project's setting (``CELERY_WORKER_CONCURRENCY``)."""
TICK = float(os.environ.get("ANNOUNCE_EVERY_SECONDS", "2"))
REQUEST_SAMPLES = int(os.environ.get("REQUEST_SAMPLES", "2000"))
SMTP_PORT = int(os.environ.get("SMTP_PORT", "8725"))
RESEND_EVERY = 30.0
TARGET_EMAILS_PER_SECOND = 200.0
TARGET_REQUEST_MS = 0.3
ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo"]
LANGUAGES = ["en", "en", "fr", "it"]

ENV = {
    "DATABASE_URL": f"{PG_URL}/{BENCH_DB}",
    "REDIS_URL": REDIS_URL,
    "DEBUG": "false",
    "SECURE": "false",
    "SECRET_KEY": "benchmark-only-secret-key-" + "e" * 40,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SITE_URL": "http://127.0.0.1:8000",
    "CELERY_TASK_ALWAYS_EAGER": "false",
    "EMAIL_URL": f"smtp://127.0.0.1:{SMTP_PORT}",
    "EMAIL_TIMEOUT": "30",
    "LOG_LEVEL": "WARNING",
}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


# -- the SMTP server (a process of its own: python benchmarks/turn_emails.py --smtp PORT FILE) ----


def smtp_server(port: int, path: str) -> None:
    """Accept every message; append ``<time> <Message-ID>`` to ``path`` for each one."""
    import logging

    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)
    out = open(path, "a", buffering=1)  # noqa: SIM115 (open for the server's life)

    class Counter:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            head = envelope.content.split(b"\r\n\r\n", 1)[0]
            found = [
                line.split(b":", 1)[1].strip()
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"message-id:")
            ]
            out.write(f"{time.time():.6f} {(found or [b'-'])[0].decode()}\n")
            return "250 OK"

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    controller = Controller(Counter(), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    controller.stop()


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) of the live processes of a process group, from /proc:
    the worker's main process and its pool, the SMTP server. What a figure costs in CPU
    does not depend on how busy the machine is, unlike its wall-clock time."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            rest = stat.read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(rest[2]) == pgid:
            total += int(rest[11]) + int(rest[12])
    return total / os.sysconf("SC_CLK_TCK")


def received(path: Path) -> list[tuple[float, str]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        moment, _, message_id = line.partition(" ")
        rows.append((float(moment), message_id))
    return rows


# -- setup -----------------------------------------------------------------------------------


def psql(sql: str) -> None:
    subprocess.run(["psql", f"{PG_URL}/postgres", "-q", "-c", sql], check=True, capture_output=True)


def prepare() -> None:
    psql(f'DROP DATABASE IF EXISTS "{BENCH_DB}" WITH (FORCE)')
    psql(f'CREATE DATABASE "{BENCH_DB}"')
    env = {**os.environ, **ENV}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(ENV)
    os.environ["DJANGO_SETTINGS_MODULE"] = "lords.settings"
    import django

    django.setup()


def make_games() -> list[int]:
    from accounts.models import User
    from games import services
    from games.models import Announcement

    rng = random.Random(15)
    users = [
        User.objects.create_user(
            f"mail{i}@example.org",
            None,
            display_name=f"m{i}",
            language=LANGUAGES[i % len(LANGUAGES)],
            time_zone=ZONES[i % len(ZONES)],
        )
        for i in range(USERS)
    ]
    games = []
    for i in range(GAMES):
        kind = "lords-of-vegas" if i % 4 == 3 else "vegas"
        seated = rng.sample(users, rng.choice([2, 3, 4]))
        game = services.create_game(creator=seated[0], game_type=kind, seats=len(seated))
        for user in seated[1:]:
            services.join_game(game=game, user=user)
        services.start_game(game=game, by=seated[0], seed=f"{i:064x}")
        games.append(game.pk)
    Announcement.objects.all().delete()  # (the joins and starts: not measured)
    return games


def move_once(game_id: int) -> int:
    """The seat to act plays its first legal command; how many moves were committed."""
    from games import services
    from games.engines.registry import get_engine
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE or game.state is None:
        return 0
    engine = get_engine(game.game_type)
    order = engine.to_act(game.state)[0]
    seat = game.seats.select_related("user").get(order=order)
    text = engine.format(engine.legal_commands(game.state, order)[0])
    services.submit_command(game=game, user=seat.user, text=text, expected_version=game.version)
    return 1


# -- the worker and the ticks ------------------------------------------------------------------


def processes() -> int:
    """The worker's processes: ``CONCURRENCY``, else what the settings give it."""
    if CONCURRENCY:
        return int(CONCURRENCY)
    from django.conf import settings  # (after prepare(): the benchmark's settings)

    return int(settings.CELERY_WORKER_CONCURRENCY)


class Worker:
    def __init__(self, queue: str, workdir: Path) -> None:
        self.queue = queue
        command = [sys.executable, "-m", "celery", "-A", "lords", "worker"]
        command += ["--pool", "prefork", "-Q", queue]
        if CONCURRENCY:
            command += ["--concurrency", CONCURRENCY]
        command += ["--loglevel", "warning", "--without-mingle", "--without-gossip"]
        command += ["--without-heartbeat", "-n", f"{queue}@%h"]
        env = {**os.environ, **ENV, "CELERY_TASK_DEFAULT_QUEUE": queue}
        self.log = open(workdir / "worker.log", "ab")  # noqa: SIM115 (the process keeps it)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self.log, stderr=self.log, start_new_session=True
        )

    def wait_ready(self) -> None:
        from lords.celery import app

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the worker stopped: see {self.log.name}")
            if app.control.ping(destination=[f"{self.queue}@{os.uname().nodename}"], timeout=1):
                return
        raise SystemExit("the worker did not answer a ping within 60 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Beat:
    """What Celery beat would send, when it would send it (call :meth:`tick` often)."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.next_announce = 0.0
        self.next_due = time.monotonic() + RESEND_EVERY
        self.first: float | None = None

    def tick(self) -> None:
        from games.tasks import announce_moves
        from notifications.tasks import send_due

        now = time.monotonic()
        if now >= self.next_announce:
            if self.first is None:
                self.first = time.time()
            announce_moves.apply_async(queue=self.queue, expires=TICK * 5)
            self.next_announce = now + TICK
        if now >= self.next_due:
            send_due.apply_async(queue=self.queue, expires=RESEND_EVERY * 2)
            self.next_due = now + RESEND_EVERY


def settled() -> bool:
    from games.models import Announcement
    from notifications.models import Notification

    return (
        not Announcement.objects.exists()
        and not Notification.objects.exclude(status=Notification.Status.SENT).exists()
    )


def wait_all(beat: Beat, inbox: Path, timeout: float = 300) -> None:
    """Tick until the outbox is empty, every row sent and the server has them all."""
    from notifications.models import Notification

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        beat.tick()
        if settled() and len(received(inbox)) >= Notification.objects.count():
            return
        time.sleep(0.05)
    raise SystemExit("timed out waiting for the emails (see the worker log)")


# -- the phases ----------------------------------------------------------------------------


def live(games: list[int], beat: Beat, inbox: Path, pgids: tuple[int, int]) -> dict[str, float]:
    from notifications.models import Notification

    before = len(received(inbox))
    notes_before = Notification.objects.count()
    worker_cpu, smtp_cpu = (group_cpu(pgid) for pgid in pgids)
    start = time.time()
    cpu = time.process_time()
    moves = 0
    for game_id in games:
        beat.tick()
        moves += move_once(game_id)
    moves_done = time.time()
    cpu = time.process_time() - cpu
    wait_all(beat, inbox)
    got = received(inbox)[before:]
    worker_cpu, smtp_cpu = (
        group_cpu(pgid) - was for pgid, was in zip(pgids, (worker_cpu, smtp_cpu), strict=True)
    )
    last = max(t for t, _ in got)
    return {
        "moves": moves,
        "moves_per_s": moves / (moves_done - start),
        "move_cpu_ms": cpu / max(moves, 1) * 1000,
        "emails": len(got),
        "rows": Notification.objects.count() - notes_before,
        "emails_per_s": len(got) / (last - start),
        "seconds": last - start,
        "worker_cpu_ms_per_email": worker_cpu / max(len(got), 1) * 1000,
        "smtp_cpu_ms_per_email": smtp_cpu / max(len(got), 1) * 1000,
    }


def backlog(games: list[int], queue: str, inbox: Path, pgids: tuple[int, int]) -> dict[str, float]:
    from django.db.models import Max, Min

    from games.models import Announcement
    from notifications.models import Notification

    moves = sum(move_once(game_id) for game_id in games)
    outbox = Announcement.objects.count()
    before = len(received(inbox))
    high = Notification.objects.aggregate(m=Max("pk"))["m"] or 0
    worker_cpu, smtp_cpu = (group_cpu(pgid) for pgid in pgids)
    beat = Beat(queue)
    beat.tick()
    assert beat.first is not None
    start = beat.first
    wait_all(beat, inbox)
    got = received(inbox)[before:]
    worker_cpu, smtp_cpu = (
        group_cpu(pgid) - was for pgid, was in zip(pgids, (worker_cpu, smtp_cpu), strict=True)
    )
    times = [t for t, _ in got]
    span = Notification.objects.filter(pk__gt=high).aggregate(
        first=Min("created_at"), last=Max("created_at"), sent=Max("sent_at")
    )
    stored = span["last"].timestamp() - start
    return {
        "moves": moves,
        "outbox_rows": outbox,
        "emails": len(got),
        "rows": Notification.objects.filter(pk__gt=high).count(),
        "emails_per_s": len(got) / (max(times) - start),
        "seconds": max(times) - start,
        "first_email_s": min(times) - start,
        "rows_stored_s": stored,
        "rows_per_s": Notification.objects.filter(pk__gt=high).count() / max(stored, 1e-6),
        "smtp_span_s": max(times) - min(times),
        "worker_cpu_ms_per_email": worker_cpu / max(len(got), 1) * 1000,
        "smtp_cpu_ms_per_email": smtp_cpu / max(len(got), 1) * 1000,
    }


def request_cost(games: list[int], queue: str) -> dict[str, float]:
    """What the outbox row costs a move, as a move pays it: a clause of the move's one
    write (``rows.one_trip``). Interleaved in one rolled-back transaction: the write of a
    game and a seat without the row and with it (their difference is the row's price), a
    bare ``SELECT 1``, and a broker publish (what a move paid before the outbox). Medians
    in ms; CPU is this process's (the client's). Not in it: the row's deferred foreign-key
    check, which a move pays at its COMMIT (the transaction is rolled back); and the rows
    updated thousands of times in one transaction leave old versions that slow both arms
    alike as the loop goes (their difference holds; the write's own figure drifts up)."""
    from django.db import connection, transaction

    from games.models import Game
    from games.services import hooks, rows
    from games.tasks import announce_moves

    spent: dict[str, list[float]] = {"without": [], "with": [], "cpu without": [], "cpu with": []}
    selects, publishes = [], []
    with transaction.atomic():
        game = Game.objects.get(pk=games[0])
        seat = game.seats.first()
        assert seat is not None
        with connection.cursor() as cursor:
            for i in range(REQUEST_SAMPLES):
                t = time.perf_counter()
                cursor.execute("SELECT 1")
                cursor.fetchone()
                selects.append(time.perf_counter() - t)
                for kind in ("without", "with") if i % 2 else ("with", "without"):
                    c, t = time.process_time(), time.perf_counter()
                    with rows.one_trip():
                        rows.update(game, ["version"])
                        rows.update(seat, ["to_act"])
                        if kind == "with":
                            hooks.announce_after_commit(game.pk, [100000 + i])
                    spent[kind].append(time.perf_counter() - t)
                    spent[f"cpu {kind}"].append(time.process_time() - c)
                if i % 4 == 0:
                    t = time.perf_counter()
                    announce_moves.apply_async(queue=f"{queue}-void")
                    publishes.append(time.perf_counter() - t)
        transaction.set_rollback(True)

    def ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    return {
        "write_ms": ms(spent["without"]),
        "outbox_ms": ms(spent["with"]) - ms(spent["without"]),
        "outbox_cpu_ms": ms(spent["cpu with"]) - ms(spent["cpu without"]),
        "select1_ms": ms(selects),
        "publish_ms": ms(publishes),
    }


def forget(queue: str) -> None:
    """Remove this run's queues from Redis (other users of the database keep theirs)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys: list[bytes] = client.keys(f"*{queue}*")  # type: ignore[assignment]
    for key in keys:
        client.delete(key)


def check(inbox: Path) -> dict[str, int]:
    from notifications.models import Notification

    got = [m for _, m in received(inbox)]
    ids = set(Notification.objects.values_list("message_id", flat=True))
    return {
        "lost": len(ids - set(got)),
        "duplicates": len(got) - len(set(got)),
        "not_sent": Notification.objects.exclude(status=Notification.Status.SENT).count(),
    }


def report(result: dict[str, Any]) -> None:
    live_, back, req = result["live"], result["backlog"], result["request"]

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    rows = [
        ("live: moves committed per second", live_["moves_per_s"], "", ""),
        ("live: emails/s, first move -> last email", live_["emails_per_s"], ">= 200", ""),
        (
            "backlog: emails/s, first tick -> last email",
            back["emails_per_s"],
            ">= 200",
            verdict(back["emails_per_s"] >= TARGET_EMAILS_PER_SECOND),
        ),
        ("backlog: first email after the tick (s)", back["first_email_s"], "", ""),
        ("backlog: worker CPU per email (ms)", back["worker_cpu_ms_per_email"], "", ""),
        ("backlog: SMTP server CPU per email (ms)", back["smtp_cpu_ms_per_email"], "", ""),
        ("live: worker CPU per email (ms)", live_["worker_cpu_ms_per_email"], "", ""),
        ("backlog: rows stored per second", back["rows_per_s"], "", ""),
        ("request: the move's write, p50 (ms)", req["write_ms"], "", ""),
        (
            "request: its outbox row, p50 (ms)",
            req["outbox_ms"],
            "<= 0.3",
            verdict(req["outbox_ms"] <= TARGET_REQUEST_MS),
        ),
        ("request: its outbox row, client CPU (ms)", req["outbox_cpu_ms"], "", ""),
        ("request: SELECT 1 p50 (ms)", req["select1_ms"], "", ""),
        ("request: a broker publish p50 (ms)", req["publish_ms"], "", ""),
    ]
    print()
    print(f"{'figure':<46} {'value':>9}  {'target':<7} ")
    for name, value, target, ok in rows:
        print(f"{name:<46} {value:>9.2f}  {target:<7} {ok}")
    print(
        f"emails: live {live_['emails']} ({live_['rows']} rows), backlog {back['emails']} "
        f"({back['rows']} rows, {back['outbox_rows']} outbox rows); lost "
        f"{result['check']['lost']}, duplicates {result['check']['duplicates']}, "
        f"not sent {result['check']['not_sent']}"
    )
    print(json.dumps(result, default=lambda v: round(v, 3)))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--smtp":
        smtp_server(int(sys.argv[2]), sys.argv[3])
        return
    workdir = Path(f"/tmp/lords-email-bench-{os.getpid()}")
    workdir.mkdir()
    inbox = workdir / "received.txt"
    prepare()
    log(f"database {BENCH_DB}, {GAMES} games, {USERS} people, worker x{processes()}")
    smtp = subprocess.Popen(
        [sys.executable, __file__, "--smtp", str(SMTP_PORT), str(inbox)],
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert smtp.stdout is not None
    smtp.stdout.readline()
    queue = f"bench-email-{uuid.uuid4().hex[:8]}"
    worker = None
    try:
        games = make_games()
        log(f"{len(games)} games started; worker on queue {queue}")
        worker = Worker(queue, workdir)
        worker.wait_ready()
        log("live: one move per game while the ticks drain the outbox")
        pgids = (worker.process.pid, smtp.pid)
        result: dict[str, Any] = {"live": live(games, Beat(queue), inbox, pgids)}
        log("backlog: one move per game, then the ticks")
        result["backlog"] = backlog(games, queue, inbox, pgids)
        log("request: the outbox row in the move's write")
        result["request"] = request_cost(games, queue)
        result["check"] = check(inbox)
        result["machine"] = {"load": os.getloadavg()[0], "cpus": os.cpu_count()}
        result["config"] = {"games": GAMES, "users": USERS, "concurrency": processes()}
        report(result)
    finally:
        if worker is not None:
            worker.stop()
        os.killpg(smtp.pid, signal.SIGTERM)
        smtp.wait(timeout=10)
        forget(queue)


if __name__ == "__main__":
    main()
