"""The embedded run's SQLite takes two writers at once: the second waits for the first
instead of failing with "database is locked" (two example clients moving at the same time
got a 500: docs/decisions/0039). PostgreSQL's settings are left as they were."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Two threads, each its own connection: each reads, waits, then writes, in one transaction.
# Begun DEFERRED, both hold a read lock when the first comes to write, and SQLite refuses
# the second at once, whatever its timeout; begun IMMEDIATE, the second waits its turn.
TWO_WRITERS = """
import threading, time
import django
django.setup()
from django.db import connection, connections, transaction
from django.conf import settings

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE counter (n integer)")
    cursor.execute("INSERT INTO counter VALUES (0)")
start = threading.Barrier(2)
failures = []

def write():
    start.wait()
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                (n,) = cursor.fetchone()
                time.sleep(0.3)
                cursor.execute("UPDATE counter SET n = %s", [n + 1])
    except Exception as exc:
        failures.append(repr(exc))
    finally:
        connections.close_all()

threads = [threading.Thread(target=write) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT n FROM counter")
    print(cursor.fetchone()[0], failures)
"""


def _run(code: str, database: str) -> str:
    env = {**os.environ, "DEBUG": "true", "DATABASE_URL": database, "REDIS_URL": ""}
    env["DJANGO_SETTINGS_MODULE"] = "lords.settings"
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.strip()


def test_two_writers_at_once_both_write(tmp_path: Path) -> None:
    said = _run(TWO_WRITERS, f"sqlite:///{tmp_path}/two.sqlite3")
    assert said == "2 []", said


def test_the_sqlite_options_are_for_sqlite_only() -> None:
    show = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS'))"
    sqlite = _run(show, "sqlite:////tmp/unused.sqlite3")
    assert sqlite == "{'transaction_mode': 'IMMEDIATE', 'timeout': 20}", sqlite
    postgres = _run(show, "postgres://postgres@127.0.0.1:5432/unused")
    assert "transaction_mode" not in postgres, postgres
