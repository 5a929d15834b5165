"""Django's PostgreSQL backend, reading ``timestamptz`` columns with psycopg's C loader.

Django (5.2) reads every ``timestamptz`` through a subclass of psycopg's *pure-Python*
``TimestamptzLoader`` (to set the tzinfo to the connection's time zone), so a
``psycopg[binary]`` install still parses each timestamp in Python: about 20 µs each, 13 of
them in a move's locked read of the game with its seats and players, four or five in every
API request's token check (Django ticket #36960, psycopg issue #1273: the C class cannot be
subclassed). This backend gives the connections a loader that calls the C loader psycopg
registered for the type, then sets the same tzinfo as Django's: the same values, parsed in
C. Where psycopg has no C implementation, the class it registered is its Python one: the
same as Django's.

It also writes JSON columns with orjson (:func:`json_text`): a move writes its game's state
and its log's commands and events, and ``json.dumps`` was a tenth of the statement's
preparation (issue #15). And where the session's time zone is the one Django wants (UTC:
psycopg then gives Django's own ``datetime.UTC``), the C loader's values are used as they
come, without a Python call around each.

``settings.DATABASES`` uses it for every PostgreSQL database (``lords/settings.py``).
"""

from __future__ import annotations

import json
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

import orjson
import psycopg
from django.db.backends.postgresql import base, operations
from psycopg.adapt import AdaptersMap, Loader
from psycopg.pq import Format
from psycopg.types.json import Jsonb

TIMESTAMPTZ_OID = psycopg.adapters.types["timestamptz"].oid


@lru_cache
def loader_for(zone: tzinfo | None) -> type[Loader]:
    """A ``timestamptz`` loader answering in ``zone`` (None: naive), as Django's, with the
    loader psycopg registered for the type (its C one, when it has one)."""
    found = psycopg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
    assert found is not None
    registered: type[Any] = found

    class TimestamptzLoader(Loader):
        timezone = zone  # compared by Django's ``create_cursor`` with the connection's

        def __init__(self, oid: int, context: Any = None) -> None:
            super().__init__(oid, context)
            self._load = registered(oid, context).load
            if self.connection is not None and self.connection.info.timezone is zone:
                # The registered loader answers in the session's zone, and that is this
                # zone itself (Django sets the session's zone; for UTC psycopg gives
                # ``datetime.timezone.utc``, Django's own): its values need nothing more.
                self.load = self._load  # type: ignore[method-assign]

        def load(self, data: Any) -> datetime:
            return self._load(data).replace(tzinfo=self.timezone)

    return TimestamptzLoader


@lru_cache
def _adapters(template: AdaptersMap, zone: tzinfo | None) -> AdaptersMap:
    adapters = AdaptersMap(template)
    adapters.register_loader(TIMESTAMPTZ_OID, loader_for(zone))
    return adapters


def json_text(value: Any) -> bytes:
    """A JSON column's value as ``json.dumps`` would write it, for ``jsonb`` (which keeps
    neither spacing nor key order): by orjson, or by ``json.dumps`` where orjson refuses (an
    integer beyond 64 bits) or where ``json.dumps`` knows nothing of a value that orjson
    would write on its own (a date or time, a dataclass such as an engine's ``Text``), so
    that such a value is stored, or refused, as before. Left to orjson: a UUID and an
    ``Enum`` are stored (as their text and value) where ``json.dumps`` refused them, and a
    float that is not a number is stored as ``null`` where PostgreSQL refused ``NaN``; no
    column of the project holds one."""
    try:
        return orjson.dumps(value, default=_unknown, option=_JSON_COLUMN)
    except orjson.JSONEncodeError:
        return json.dumps(value).encode()


_JSON_COLUMN = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def _unknown(value: Any) -> Any:
    raise TypeError(type(value).__name__)  # (``json.dumps`` decides: it raises too)


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value: Any, encoder: type[json.JSONEncoder] | None) -> Any:
        if encoder is not None:  # (a field's own encoder: Django's way)
            return super().adapt_json_value(value, encoder)
        return Jsonb(value, dumps=json_text)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if "context" in params:  # (psycopg 3: Django's adapters for this time zone)
            params["context"] = _adapters(params["context"], self.timezone)
        return params
