"""The project's PostgreSQL backend (``lords/postgresql``): timestamps read as Django reads
them, parsed by psycopg's C loader where psycopg has one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend"),
]

MOMENTS = st.datetimes(
    min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
)


def _read(moments: list[datetime]) -> list[datetime]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT unnest(%s::timestamptz[])", [moments])
        return [row[0] for row in cursor.fetchall()]


def test_timestamps_are_parsed_by_the_loader_psycopg_registered() -> None:
    """Django's own loader parses in Python even with psycopg's C implementation installed;
    ours hands the text to the loader psycopg registered for the type."""
    import psycopg

    connection.ensure_connection()
    oid = psycopg.adapters.types["timestamptz"].oid
    with connection.cursor() as cursor:
        loader = cursor.cursor.adapters.get_loader(oid, psycopg.pq.Format.TEXT)
    assert loader is not None and not issubclass(loader, BaseTzLoader)
    assert getattr(loader, "timezone", "?") == connection.timezone
    registered = psycopg.adapters.get_loader(oid, psycopg.pq.Format.TEXT)
    if psycopg.pq.__impl__ != "python":  # psycopg[binary] or [c]: the C one
        assert not registered.__module__.startswith("psycopg.")


def test_it_reads_what_was_written_in_utc() -> None:
    written = [
        datetime(2026, 10, 25, 0, 59, 59, 999999, tzinfo=UTC),  # around a DST change
        datetime(2026, 3, 29, 1, 0, tzinfo=UTC),
        datetime(2026, 11, 23, 12, 0, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
    ]
    read = _read(written)
    assert read == written
    assert all(moment.tzinfo is connection.timezone for moment in read)


@settings(max_examples=40, deadline=None)
@given(st.lists(MOMENTS, min_size=1, max_size=20))
def test_it_reads_any_moment_as_djangos_own_loader_does(moments: list[datetime]) -> None:
    """Property: the same values as Django's loader (PostgreSQL keeps microseconds)."""
    read = _read(moments)
    assert read == moments
    with connection.cursor() as cursor:
        cursor.execute("SELECT unnest(%s::timestamptz[])::text", [moments])
        texts = [row[0].encode() for row in cursor.fetchall()]

    class Django(BaseTzLoader):
        timezone = connection.timezone

    django = Django(0, cursor.cursor)
    assert [django.load(text) for text in texts] == read
