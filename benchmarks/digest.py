#!/usr/bin/env python3
"""Benchmark of the daily digest run: its cost grows with the players due, not with all.

    .venv/bin/python benchmarks/digest.py        # about a minute; prints a table + JSON

In one run, against PostgreSQL at ``PG_URL`` (default ``postgres://postgres@127.0.0.1:5432``):

1. Recreates the database ``BENCH_DB`` (default ``lords_digest_bench``) and migrates it.
2. Creates 1,000 digest players in a dozen zones; ``DUE`` (100) of them are due now, each
   with a Vegas game against a bot waiting on them; the others' digest moments are spread
   over the coming 23 hours. Times one ``run_digests()`` (emails to Django's in-memory
   backend: the digest's own work, not an SMTP server's) and counts its SQL queries.
3. Adds 9,000 more players not due (10,000 in all), makes the same 100 due again (their
   digest rows deleted, their moment back to now) and times the run again. Each figure is
   the median of ``RUNS`` (3) runs.
4. Prints both runs, the ratios (10,000 / 1,000) of time and of queries, and the plan
   PostgreSQL chooses for the query that finds the players due (``EXPLAIN ANALYZE``).

Target (documented, not asserted): both ratios near 1 (at most 1.2): the work is per player
due (the partial index ``email_digest_due`` on ``EmailPreference.digest_at``), and the other
players are never read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432")
BENCH_DB = os.environ.get("BENCH_DB", "lords_digest_bench")
DUE = int(os.environ.get("DUE", "100"))
SMALL, LARGE = 1_000, 10_000
RUNS = int(os.environ.get("RUNS", "3"))
ZONES = [
    "Europe/Paris",
    "Europe/Rome",
    "Europe/London",
    "America/New_York",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Australia/Sydney",
    "Africa/Lagos",
    "Pacific/Auckland",
    "UTC",
]
ENV = {
    "DATABASE_URL": f"{PG_URL}/{BENCH_DB}",
    "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"),
    "DEBUG": "false",
    "SECURE": "false",
    "SECRET_KEY": "benchmark-only-secret-key-" + "d" * 40,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "CELERY_TASK_ALWAYS_EAGER": "true",
    "LOG_LEVEL": "WARNING",
}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def psql(sql: str) -> None:
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-q", "-c", sql],
        check=True,
        capture_output=True,
    )


def setup() -> None:
    psql(f'DROP DATABASE IF EXISTS "{BENCH_DB}" WITH (FORCE)')
    psql(f'CREATE DATABASE "{BENCH_DB}"')
    os.environ.update(ENV)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "lords.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def add_players(start: int, count: int, due: int) -> None:
    """``count`` digest players from number ``start``; the first ``due`` are due now and
    have a game waiting on them, the others are due later today."""
    from django.utils import timezone

    from accounts.models import User
    from games import services
    from notifications.models import EmailPreference

    now = timezone.now()
    users = User.objects.bulk_create(
        [
            User(
                email=f"p{n}@bench.example",
                password="!",
                time_zone=ZONES[n % len(ZONES)],
                language="en",
            )
            for n in range(start, start + count)
        ]
    )
    prefs = []
    for i, user in enumerate(users):
        later = timedelta(minutes=30 + (i * 7) % (23 * 60))
        prefs.append(
            EmailPreference(
                user=user,
                digest=True,
                digest_hour=(i % 24),
                digest_at=now - timedelta(minutes=1) if i < due else now + later,
            )
        )
    EmailPreference.objects.bulk_create(prefs)
    for user in users[:due]:
        game = services.create_game(creator=user, game_type="vegas", seats=2)
        services.add_bot(game=game, by=user)
        services.start_game(game=game, by=user, seed=f"bench-{user.pk}")


def make_due_again(user_ids: list[int]) -> None:
    from django.utils import timezone

    from notifications.models import EmailPreference, Notification

    Notification.objects.filter(user_id__in=user_ids, kind="digest").delete()
    EmailPreference.objects.filter(user_id__in=user_ids).update(
        digest_at=timezone.now() - timedelta(minutes=1)
    )


def timed_run() -> dict[str, float]:
    from django.core import mail
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications.digest import run_digests

    mail.outbox = []
    connection.queries_log.clear()  # (its deque holds 9,000: the count needs room)
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        sent = run_digests()
        seconds = time.perf_counter() - started
    return {"sent": sent, "seconds": round(seconds, 3), "queries": len(queries)}


def median_run(due_ids: list[int]) -> dict[str, float]:
    """The median of ``RUNS`` runs (the same players made due again before each): the
    machine is shared, one run can be unlucky."""
    runs = []
    for _ in range(RUNS):
        make_due_again(due_ids)
        runs.append(timed_run())
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


def explain() -> str:
    from django.db import connection
    from django.utils import timezone

    from notifications.models import EmailPreference

    query = EmailPreference.objects.filter(digest_at__lte=timezone.now()).order_by("digest_at")
    sql, params = query[:1000].query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN ANALYZE {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def main() -> None:
    setup()
    from notifications.models import EmailPreference

    log(f"{SMALL} players, {DUE} due")
    add_players(0, SMALL, DUE)
    due_ids = list(
        EmailPreference.objects.filter(digest_at__isnull=False)
        .order_by("digest_at")
        .values_list("user_id", flat=True)[:DUE]
    )
    timed_run()  # warm-up: templates, the engine, connections
    small = median_run(due_ids)
    log(f"  {small}")
    log(f"{LARGE} players, the same {DUE} due")
    add_players(SMALL, LARGE - SMALL, 0)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE notifications_emailpreference")
    make_due_again(due_ids)
    plan = explain()  # (while the 100 are due)
    large = median_run(due_ids)
    log(f"  {large}")
    result = {
        "players_small": SMALL,
        "players_large": LARGE,
        "due": DUE,
        "small": small,
        "large": large,
        "time_ratio": round(large["seconds"] / small["seconds"], 2),
        "query_ratio": round(large["queries"] / small["queries"], 2),
        "plan": plan,
    }
    print(f"\n{'players':>8} {'due':>5} {'sent':>5} {'seconds':>8} {'queries':>8}")
    for n, run in ((SMALL, small), (LARGE, large)):
        print(f"{n:>8} {DUE:>5} {run['sent']:>5} {run['seconds']:>8} {run['queries']:>8}")
    print(f"ratio (10,000 / 1,000): time {result['time_ratio']}, queries {result['query_ratio']}")
    print(f"\nEXPLAIN ANALYZE of the due players' query:\n{plan}\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
