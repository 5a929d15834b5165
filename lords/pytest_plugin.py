"""Test-suite wiring: point the suite at the machine's PostgreSQL and Redis.

Loaded with ``-p lords.pytest_plugin`` (see pyproject) before pytest-django reads the
settings, so it can fill in ``DATABASE_URL``/``REDIS_URL`` from the local services. When
PostgreSQL is not reachable the suite falls back to SQLite, skips the tests marked
``postgres`` and says so loudly at the end, naming every skipped test.
"""

from __future__ import annotations

import os
import socket

import pytest

_LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/lords"
_LOCAL_REDIS = "redis://127.0.0.1:6379/15"
_REASON = "PostgreSQL is not reachable (DATABASE_URL is not a postgres:// URL)"
_skipped: list[str] = []


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def _using_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    os.environ.setdefault("SECRET_KEY", "test-only-secret-key-" + "k" * 40)
    os.environ.setdefault("SECURE", "false")
    # Tasks run inline (emails to Django's locmem outbox): committed moves of ordinary tests
    # never pile up in the shared Redis. The worker tests turn it off for themselves.
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
    if "DATABASE_URL" not in os.environ:
        if _reachable("127.0.0.1", 5432):
            os.environ["DATABASE_URL"] = _LOCAL_POSTGRES
        else:
            os.environ["DATABASE_URL"] = "sqlite:///var/test.sqlite3"
    if "REDIS_URL" not in os.environ and _reachable("127.0.0.1", 6379):
        os.environ["REDIS_URL"] = _LOCAL_REDIS


def pytest_report_header() -> list[str]:
    return [
        f"database: {os.environ.get('DATABASE_URL')}",
        f"redis: {os.environ.get('REDIS_URL') or 'not reachable'}",
    ]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if _using_postgres():
        return
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.skip(reason=_REASON))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collect our skips from the reports, so the banner works under pytest-xdist too
    (the reports of every worker reach the controlling process)."""
    if report.skipped and _REASON in str(report.longrepr):
        _skipped.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _skipped:
        return
    terminalreporter.section("POSTGRESQL NOT REACHABLE", sep="!", red=True, bold=True)
    terminalreporter.write_line(
        f"{len(_skipped)} tests that need PostgreSQL were SKIPPED:", red=True, bold=True
    )
    for nodeid in _skipped:
        terminalreporter.write_line(f"  {nodeid}", red=True)
