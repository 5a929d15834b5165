"""The move path's statements (and the game view's read), each made once per process from the
models' own metadata.

Why: building a query costs the ORM several times what the database takes to run it. On the
benchmark machine a locked read of the game row took 0.66 ms of Python through the ORM and
0.23 ms through the cursor, and a move makes seven such statements (issue #15: a move should
cost the server about two requests that do nothing). These functions keep the ORM's rules
and skip only its building:

- column names and tables come from ``_meta``; values go in through each field's
  ``pre_save`` and ``get_db_prep_save`` (or what it comes to, :func:`_prepared`) and come
  out through the backend's and the field's converters, as the ORM's compilers do;
  instances are made as ``Model.from_db`` and ``Model(...)`` make them (:func:`_instance`,
  :func:`new`);
- each statement's SQL is made on first use and kept, per model, fields and database vendor
  (the same code runs on PostgreSQL and on the embedded SQLite; ``FOR UPDATE`` only where
  the database has it);
- they run in the caller's transaction on psycopg cursors kept per connection, one per
  statement (:func:`_cursor`), with Django's checks and errors, and logged where Django logs queries
  (the test suite's query counts, ``DEBUG``); on SQLite, on Django's cursor;
- a move's writes are held by :func:`one_trip` and sent together: on PostgreSQL one
  statement for the Move rows, the game, its seats and the outbox row (docs/decisions/0019).

No signals are sent: the models of the move path have no receivers (and ``Move.save``'s
append-only check does not apply to an INSERT). Everything else keeps using the ORM.
"""

from __future__ import annotations

import json
import logging
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, NamedTuple, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import signals
from django.db.models.base import ModelState
from django.db.models.fields.json import JSONField
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute

from games.models import Game, Seat, TradeOffer

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


@cache
def _fields(model: type[models.Model]) -> tuple[models.Field[Any, Any], ...]:
    return tuple(model._meta.concrete_fields)


@cache
def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), name  # a column of this model's table
    return field


@cache
def _converters(
    model: type[models.Model], names: tuple[str, ...] | None, vendor: str
) -> tuple[tuple[int, Any, tuple[Converter, ...]], ...]:
    """The columns (all of the model's, or ``names``) whose driver values need turning into
    the field's (dates on SQLite, JSON...), each with its column expression and the
    functions the ORM's compiler would apply to it, in the same order."""
    fields = _fields(model) if names is None else tuple(_field(model, n) for n in names)
    out = []
    for i, field in enumerate(fields):
        col = field.get_col(model._meta.db_table)
        found = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        found = [_json_column if _plain_json(field, f) else f for f in found]
        if found:
            out.append((i, col, tuple(found)))
    return tuple(out)


def _plain_json(field: models.Field[Any, Any], converter: Converter) -> bool:
    """Whether ``converter`` is Django's reading of a whole JSON column without a decoder
    of its own: what :func:`_json_column` does."""
    django_s = getattr(converter, "__func__", None) is JSONField.from_db_value
    return django_s and getattr(field, "decoder", None) is None


_EMPTY: dict[str, Callable[[], Any]] = {"{}": dict, "[]": list}


def _json_column(value: Any, expression: Any, connection: Any) -> Any:
    """``JSONField.from_db_value`` for a whole column (not a key of one) and no decoder,
    the empty object and list made without the decoder: a move reads ten JSON columns,
    most of them empty (a seat's preferences, a game's options). (Not orjson for the
    others: it reads an integer beyond 64 bits as a float; decision 0019.)"""
    if value is None:
        return None
    empty = _EMPTY.get(value) if isinstance(value, str) else None
    if empty is not None:
        return empty()
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def _db() -> BaseDatabaseWrapper:
    """This thread's connection itself (``django.db.connection`` is a proxy that looks it up
    on every attribute: a cost the hot path pays many times over)."""
    return connections[DEFAULT_DB_ALIAS]


_kept: weakref.WeakKeyDictionary[BaseDatabaseWrapper, tuple[Any, Any, dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)
"""Per Django connection: the driver connection and the time zone it had when its cursors
were made, and those cursors, one per statement (the least recently used closed beyond
:data:`CURSORS`)."""

CURSORS = 32
"""Statements kept with a cursor of their own, per connection: a move sends two, but the
write's text depends on what it writes (bot moves, the seats whose flags change, a game
that ends), and the game view, the notifications and ``values`` (one text per length of
its list) have theirs. Each cursor holds its last result and query until it runs again."""


@contextmanager
def _cursor(db: BaseDatabaseWrapper) -> Iterator[Any]:
    """Where this module's statements run. On PostgreSQL: psycopg cursors kept from
    statement to statement, one per statement's text (:class:`_Statements`). Making a cursor
    for each statement (what ``db.cursor()`` does) and Django's wrapper around it cost 30 to
    60 µs per statement, a move making two (issue #15). What Django's cursor does that
    matters is done here too: the checks before a statement (a broken transaction, a failed
    health check), the errors as Django's (``IntegrityError``...), the statement in
    ``queries_log`` and the ``django.db.backends`` log when queries are logged (the tests'
    counts, ``DEBUG``), and a :func:`move_transaction`'s ``BEGIN`` folded into its first
    statement. Execute wrappers other than that one are not run. New cursors are made when
    the driver connection or the time zone changes (Django's cursor is made for the zone of
    its moment). Elsewhere (SQLite) and on a connection shared between threads: Django's
    cursor."""
    if db.vendor != "postgresql" or db.allow_thread_sharing:
        with db.cursor() as cursor:
            yield cursor
        return
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_no_broken_transaction()
    with db.wrap_database_errors:
        kept = _kept.get(db)
        if kept is None or kept[0] is not db.connection or kept[1] is not db.timezone:
            kept = _kept[db] = (db.connection, db.timezone, {})
        yield _Statements(db, kept[2])


class _Statements:
    """The kept cursors as this module uses them (see :func:`_cursor`): each statement runs
    on the cursor kept for its text, and what follows (``fetchone``...) reads that cursor.
    Why one per statement: psycopg keeps a cursor's adapters (which function reads each
    column type, which writes each parameter type) while it runs the same query object
    again, and makes them anew for any other; the statements here are made once and kept
    (``functools.cache``, or an ``lru_cache`` for the texts made of others), so each cursor
    sees its own again. A move's read and write then cost 10 to 20 µs less each (issue
    #15). Only with persistent connections (``CONN_MAX_AGE`` > 0, as ``docker/compose.yml``
    and the benchmarks have it): Django closes a connection, and its cursors with it, at the
    end of each request otherwise."""

    def __init__(self, db: BaseDatabaseWrapper, cursors: dict[str, Any]) -> None:
        self.db, self.cursors = db, cursors
        self.cursor: Any = None

    def _cursor_for(self, sent: str) -> Any:
        cursor = self.cursors.pop(sent, None)
        if cursor is None:
            if len(self.cursors) >= CURSORS:  # (the least recently used goes: a dict keeps
                self.cursors.pop(next(iter(self.cursors))).close()  # its order of insertion)
            cursor = self.db.create_cursor()
        self.cursors[sent] = cursor  # (last: the most recently used)
        return cursor

    def execute(self, sql: str, params: Sequence[Any]) -> None:
        fold = _fold.get()
        sent = sql if fold is None else fold.statement(sql)
        self.cursor = self._cursor_for(sent)
        if not self.db.queries_logged:
            self._execute(sql, sent, params)
            return
        started = time.monotonic()
        try:
            self._execute(sql, sent, params)
        finally:  # (as Django's debug cursor: a statement that failed is logged too)
            took = time.monotonic() - started
            query = self.db.ops.last_executed_query(self.cursor, sent, params)
            self.db.queries_log.append({"sql": query, "time": f"{took:.3f}"})
            _log.debug("(%.3f) %s; args=%s; alias=%s", took, query, params, self.db.alias)

    def _execute(self, sql: str, sent: str, params: Sequence[Any]) -> None:
        self.cursor.execute(sent, params)
        if sent is not sql:  # (the BEGIN's empty result)
            self.cursor.nextset()

    def fetchone(self) -> Any:
        return self.cursor.fetchone()

    def fetchall(self) -> list[Any]:
        return self.cursor.fetchall()

    def nextset(self) -> bool | None:
        return self.cursor.nextset()


_log = logging.getLogger("django.db.backends")


def _converted(
    db: BaseDatabaseWrapper,
    model: type[models.Model],
    names: tuple[str, ...] | None,
    values: Sequence[Any],
) -> list[Any]:
    converted = list(values)
    for i, col, converters in _converters(model, names, db.vendor):
        for convert in converters:
            converted[i] = convert(converted[i], col, db)
    return converted


def _quoted(field: Any) -> str:
    """A field's column, quoted for the database."""
    return connection.ops.quote_name(str(field.column))


def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _pk(model: type[models.Model]) -> str:
    return _quoted(model._meta.pk)


def _columns(model: type[models.Model], alias: str) -> str:
    return ", ".join(f"{alias}.{_quoted(f)}" for f in _fields(model))


@cache
def _attnames(model: type[models.Model]) -> list[str]:
    return [f.attname for f in _fields(model)]


def _instance(db: BaseDatabaseWrapper, model: type[M], values: Sequence[Any]) -> M:
    """A model instance from its columns' values as the driver gave them: what
    ``Model.from_db`` makes, without running ``Model.__init__`` where nothing would see the
    difference (:func:`_plain`). A move makes a dozen (the game, its seats, their players
    and their email choices), and ``__init__`` took a third of a move's locked read."""
    converted = _converted(db, model, None, values)
    if not _plain(model):
        return model.from_db(db.alias, _attnames(model), converted)
    obj = model.__new__(model)
    obj.__dict__.update(zip(_attnames(model), converted, strict=True))
    state = obj._state = ModelState()
    state.adding, state.db = False, db.alias
    return obj


def new(model: type[M], **values: Any) -> M:
    """``model(**values)`` for a row to insert: each column its value (by attribute name,
    ``game_id``) or its field's default, a related object given by its name (``game``)
    set through its descriptor as ``__init__`` sets it, the instance unsaved. Made without
    ``Model.__init__`` where nothing would see the difference (:func:`_plain`): a move makes
    two (its Move and outbox rows), and ``__init__`` took 2 % of a move's CPU (issue #15).
    Other models go through ``__init__``; a name that is not a field is refused
    (``TypeError``)."""
    if not _plain(model):
        return model(**values)
    obj = model.__new__(model)
    obj._state = ModelState()
    fields = obj.__dict__
    for field in _fields(model):
        name = field.attname
        if name in values:
            fields[name] = values.pop(name)
        elif field.is_relation and field.name in values:  # (its descriptor, as __init__)
            _relate(obj, field, values.pop(field.name))
        else:
            fields[name] = field.get_default()
    if values:  # (what __init__ would refuse, or a property it would set)
        raise TypeError(f"{model.__name__}: not fields: {', '.join(values)}")
    return obj


def _relate(obj: models.Model, field: Any, value: Any) -> None:
    """``setattr(obj, field.name, value)`` for a new instance: what the foreign key's
    descriptor does, for a saved object of the related model itself and no database
    router (the key's value, the object cached, the instance on the object's database;
    the descriptor's checks of the object's type and of the routers each took a tenth of a
    move's log rows, issue #15). Anything else goes through the descriptor."""
    if (
        type(field) is models.ForeignKey
        and type(value) is field.related_model
        and value._state.db is not None
        and value.pk is not None
        and field.target_field is field.related_model._meta.pk
        and obj._state.db in (None, value._state.db)
        and not router.routers
    ):
        obj._state.db = value._state.db
        obj.__dict__[field.attname] = value.pk
        field.set_cached_value(obj, value)
        return
    setattr(obj, field.name, value)


@cache
def _plain(model: type[models.Model]) -> bool:
    """Whether ``Model.from_db`` with every column comes to setting the columns' values in
    the instance's ``__dict__`` and a saved ``_state``: the model keeps Django's
    ``__init__`` and ``from_db``, no receiver listens to its ``pre_init`` or ``post_init``
    (connected in the apps' ``ready()``, before a first request), and each column's
    attribute is Django's plain one (``DeferredAttribute``; a foreign key's clears a cached
    related object, which a new instance has not)."""
    plain_attributes = (DeferredAttribute, ForeignKeyDeferredAttribute)
    return (
        model.__init__ is models.Model.__init__
        and model.from_db.__func__ is models.Model.from_db.__func__  # type: ignore[attr-defined]
        and not signals.pre_init.has_listeners(model)
        and not signals.post_init.has_listeners(model)
        and all(type(getattr(model, name, None)) in plain_attributes for name in _attnames(model))
    )


PLAYER_ROWS: list[type[models.Model]] = []
"""Models with a one-to-one to the user whose row (if any) the game's read brings with each
player, cached on the user as the reverse one-to-one is (``user.<related_name>``; no row:
it raises ``DoesNotExist`` without a query). Filled in their ``ready()`` by apps the games
may not import: the notifications' email choices, whose quiet hours move a deadline
(``clock.QUIET_HOURS``), so that a move does not read them in a second round trip."""


def _player_rows() -> tuple[tuple[type[models.Model], Any], ...]:
    """Each model of :data:`PLAYER_ROWS` with its one-to-one field to the user."""
    user_model = Seat.user.field.related_model
    found = []
    for model in PLAYER_ROWS:
        [field] = [f for f in _fields(model) if f.one_to_one and f.related_model is user_model]
        found.append((model, field))
    return tuple(found)


@cache
def _game_sql(vendor: str) -> str:
    """The game with its seats in order and their players: one statement, one snapshot (an
    unlocked read must not see the game from before a move and its seats from after)."""
    user_model = Seat.user.field.related_model
    columns = f"{_columns(Game, 'g')}, {_columns(Seat, 's')}, {_columns(user_model, 'u')}"
    return f"SELECT {columns} {_game_seats_users()}"


@cache
def _locked_game_sql(vendor: str) -> str:
    """The game row under its write lock: the lock and the read in one statement. A
    ``SELECT ... FOR UPDATE`` that waits for another transaction's lock on the row gives the
    row as that transaction left it (PostgreSQL re-reads a row it locks), so every column
    here is current; what a statement joins is not (see :func:`locked_game_with_seats`)."""
    locking = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return f"SELECT {_columns(Game, 'g')} FROM {_table(Game)} g WHERE g.{_pk(Game)} = %s{locking}"


@cache
def _locked_seats_sql(vendor: str, extra: tuple[tuple[type[models.Model], Any], ...]) -> str:
    """The game's seats in order, each with its player and the player's :data:`PLAYER_ROWS`,
    and on each row whether the game has an open trade offer that lapses with a turn (the
    move that ends a turn then expires it; offers are made under the game's lock). Its two
    parameters are the game's key (the check's, computed once, then the seats')."""
    user_model = Seat.user.field.related_model
    columns = f"{_columns(Seat, 's')}, {_columns(user_model, 'u')}"
    joins = ""
    for i, (model, field) in enumerate(extra):
        columns += f", {_columns(model, f'x{i}')}"
        joins += f" LEFT JOIN {_table(model)} x{i} ON x{i}.{_quoted(field)} = u.{_pk(user_model)}"
    offers = _table(TradeOffer)
    lapsing = (
        f"EXISTS (SELECT 1 FROM {offers} o WHERE o.{_quoted(TradeOffer.game.field)} = %s "
        f"AND o.{_quoted(_field(TradeOffer, 'status'))} = "
        f"'{TradeOffer.Status.OPEN}' AND o.{_quoted(_field(TradeOffer, 'turn'))} <> '')"
    )
    return (
        f"SELECT {columns}, {lapsing} FROM {_table(Seat)} s "
        f"LEFT JOIN {_table(user_model)} u ON u.{_pk(user_model)} = s.{_quoted(Seat.user.field)}"
        f"{joins} WHERE s.{_quoted(Seat.game.field)} = %s "
        f"ORDER BY s.{_quoted(_field(Seat, 'order'))}"
    )


@cache
def _locked_read_sql(vendor: str, extra: tuple[tuple[type[models.Model], Any], ...]) -> str:
    """The locked game and its seats: one query string (made once: see _Statements)."""
    return f"{_locked_game_sql(vendor)}; {_locked_seats_sql(vendor, extra)}"


def _several_per_query(db: BaseDatabaseWrapper) -> bool:
    """Whether one query string may hold several statements: PostgreSQL with Django's
    default client-side binding (psycopg's simple query protocol; not with
    ``server_side_binding``)."""
    return db.vendor == "postgresql" and not db.settings_dict["OPTIONS"].get("server_side_binding")


def _game_seats_users() -> str:
    """``FROM`` the game ``g``, its seats ``s`` in order and their players ``u``, for the
    game whose key is the statement's one parameter."""
    user_model = Seat.user.field.related_model
    return (
        f"FROM {_table(Game)} g "
        f"LEFT JOIN {_table(Seat)} s ON s.{_quoted(Seat.game.field)} = g.{_pk(Game)} "
        f"LEFT JOIN {_table(user_model)} u ON u.{_pk(user_model)} = s.{_quoted(Seat.user.field)}"
        f" WHERE g.{_pk(Game)} = %s ORDER BY s.{_quoted(_field(Seat, 'order'))}"
    )


class Locked(NamedTuple):
    """The game read under its write lock, for a move."""

    game: Game
    seats: list[Seat]
    """In order, each with its user and the user's :data:`PLAYER_ROWS`."""
    offers_may_lapse: bool
    """Whether an open trade offer would lapse when a turn ends (false: nothing to expire)."""


def game_with_seats(pk: int) -> tuple[Game, list[Seat]] | None:
    """The game row and its seats in order, each with its user, in one statement (one
    snapshot), without a lock; None if there is no such game. (The callers hand the seats
    on to what needs them: ``game.seats`` would read them again.)"""
    user_model = Seat.user.field.related_model
    db = _db()
    with _cursor(db) as cursor:
        cursor.execute(_game_sql(db.vendor), [pk])
        found = cursor.fetchall()
    if not found:
        return None
    n_game, n_seat = len(_fields(Game)), len(_fields(Seat))
    game = _instance(db, Game, found[0][:n_game])
    seats = []
    for row in found:
        if row[n_game] is None:  # a game without seats (the LEFT JOIN's empty side)
            continue
        user_row = row[n_game + n_seat :]
        user = None if user_row[0] is None else _instance(db, user_model, user_row)
        seats.append(_seat(db, game, row[n_game : n_game + n_seat], user))
    return game, seats


def locked_game_with_seats(pk: int) -> Locked | None:
    """The game under its write lock, its seats in order with their players (and each
    player's :data:`PLAYER_ROWS`), and whether an offer may lapse; None if there is no such
    game. The game is read by the statement that locks it, and the seats by a statement of
    their own that follows it, with its own snapshot taken once the lock is held. (Not one
    statement: one that waits for a row lock re-reads the row it locks as the holder left
    it, but what it joins as it was when it began: a move waiting behind another would read
    the seats from before it. Locking the seats too, ``FOR UPDATE OF g, s``, deadlocked moves
    racing for one game with the foreign-key checks of their commits.) On PostgreSQL the two
    statements go in one round trip, one query string."""
    user_model = Seat.user.field.related_model
    extra = _player_rows()
    db = _db()
    with _cursor(db) as cursor:
        if _several_per_query(db):
            cursor.execute(_locked_read_sql(db.vendor, extra), [pk, pk, pk])
            game_row = cursor.fetchone()
            if game_row is None:
                return None
            cursor.nextset()
        else:
            cursor.execute(_locked_game_sql(db.vendor), [pk])
            game_row = cursor.fetchone()
            if game_row is None:
                return None
            cursor.execute(_locked_seats_sql(db.vendor, extra), [pk, pk])
        found = cursor.fetchall()
    n_seat, n_user = len(_fields(Seat)), len(_fields(user_model))
    game = _instance(db, Game, game_row)
    seats = []
    for row in found:
        user_row = row[n_seat : n_seat + n_user]
        user = None if user_row[0] is None else _instance(db, user_model, user_row)
        start = n_seat + n_user
        for model, field in extra:
            end = start + len(_fields(model))
            if user is not None:
                own = None if row[start] is None else _instance(db, model, row[start:end])
                field.remote_field.set_cached_value(user, own)
            start = end
        seats.append(_seat(db, game, row[:n_seat], user))
    # (A game without seats has no row to say it: its offers are checked, as if they lapse.)
    offers_may_lapse = bool(found[0][-1]) if found else True
    return Locked(game, seats, offers_may_lapse)


def _seat(db: BaseDatabaseWrapper, game: Game, values: Sequence[Any], user: Any) -> Seat:
    """A seat from its columns, with its game and its user (None: a bot) cached on it."""
    seat = _instance(db, Seat, values)
    Seat.game.field.set_cached_value(seat, game)
    Seat.user.field.set_cached_value(seat, user)
    return seat


@cache
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    fields = [_field(model, n) for n in names]
    sets = ", ".join(f"{_quoted(f)} = %s" for f in fields)
    return f"UPDATE {_table(model)} SET {sets} WHERE {_pk(model)} = %s"


def update(instance: models.Model, names: Sequence[str]) -> None:
    """``instance.save(update_fields=names)`` for an instance read from the database (inside
    :func:`one_trip`: held, see there)."""
    held = _held.get()
    if held is not None:
        held.update(instance, names)
        return
    _update_now(_db(), instance, names)


def _update_now(db: BaseDatabaseWrapper, instance: models.Model, names: Sequence[str]) -> None:
    with _cursor(db) as cursor:
        cursor.execute(*_update_statement(db, {n: instance for n in names}))


def _update_statement(
    db: BaseDatabaseWrapper, fields: dict[str, models.Model]
) -> tuple[str, list[Any]]:
    """The UPDATE of one row: each field's value from its own instance (of that row)."""
    first = next(iter(fields.values()))
    model = type(first)
    values = []
    for name, instance in fields.items():
        field = _field(model, name)
        values.append(_prepared(field, getattr(instance, field.attname), db))
    return _update_sql(model, tuple(fields), db.vendor), [*values, first.pk]


@cache
def _insert_sql(model: type[models.Model], rows: int, vendor: str) -> str:
    fields = [f for f in _fields(model) if f is not model._meta.pk]
    columns = ", ".join(_quoted(f) for f in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    returning = f" RETURNING {_pk(model)}"
    return f"INSERT INTO {_table(model)} ({columns}) VALUES " + ", ".join([one] * rows) + returning


def insert(objs: Sequence[M]) -> list[M]:
    """``bulk_create(objs)`` for new instances of one model with an automatic primary key,
    which each instance receives (inside :func:`one_trip`: when the block ends). Where the
    database cannot return the keys of a multi-row INSERT, the ORM's ``bulk_create`` does
    it."""
    if not objs:
        return []
    held = _held.get()
    if held is not None:
        held.inserts.append(list(objs))
        return list(objs)
    db = _db()
    if not db.features.can_return_rows_from_bulk_insert:
        return type(objs[0])._default_manager.bulk_create(objs)
    with _cursor(db) as cursor:
        cursor.execute(*_insert_statement(db, objs))
        keys = [pk for (pk,) in cursor.fetchall()]
    _keyed(db, objs, keys)
    return list(objs)


def _insert_statement(
    db: BaseDatabaseWrapper, objs: Sequence[models.Model]
) -> tuple[str, list[Any]]:
    model = type(objs[0])
    fields = [f for f in _fields(model) if f is not model._meta.pk]
    values: list[Any] = []
    for obj in objs:
        for f in fields:
            values.append(_prepared(f, f.pre_save(obj, True), db))
    return _insert_sql(model, len(objs), db.vendor), values


_SLOW = object()
"""What a shortcut of :func:`_shortcut` answers for a value it does not know: the field's
own preparation is needed."""

Shortcut = Callable[[Any, BaseDatabaseWrapper], Any]

_INTEGERS = (
    models.IntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
)


def _as_is(kind: type) -> Shortcut:
    return lambda value, db: value if value is None or type(value) is kind else _SLOW


def _key(value: Any, db: BaseDatabaseWrapper) -> Any:
    if value is None:
        return None
    return db.ops.validate_autopk_value(value) if type(value) is int else _SLOW


def _integer(internal_type: str) -> Shortcut:
    def quick(value: Any, db: BaseDatabaseWrapper) -> Any:
        if value is None or type(value) is int:
            return db.ops.adapt_integerfield_value(value, internal_type)
        return _SLOW

    return quick


def _moment(value: Any, db: BaseDatabaseWrapper) -> Any:
    if value is None or (type(value) is datetime and value.utcoffset() is not None):
        return db.ops.adapt_datetimefield_value(value)
    return _SLOW  # (a naive datetime: Django warns and makes it aware)


def _json(encoder: Any) -> Shortcut:
    def quick(value: Any, db: BaseDatabaseWrapper) -> Any:
        if value is None:
            return None
        if type(value) is dict or type(value) is list:
            return db.ops.adapt_json_value(value, encoder)
        return _SLOW

    return quick


@cache
def _shortcut(field: models.Field[Any, Any]) -> Shortcut | None:
    """What ``field.get_db_prep_save`` comes to for the values a move writes, in one call
    where Django makes five or six (Django's own field classes only, not subclasses: one
    may prepare its own way): an int, text or a flag as it is, or as the backend adapts an
    integer; an aware datetime as the backend adapts it; a dict or a list as the backend
    writes JSON."""
    kind = type(field)
    if kind is models.ForeignKey and type(field.target_field) in (  # type: ignore[attr-defined]
        models.AutoField,
        models.BigAutoField,
    ):
        return _key
    if kind in (models.AutoField, models.BigAutoField):
        return _key
    if kind in _INTEGERS:
        return _integer(field.get_internal_type())
    if kind in (models.CharField, models.TextField):
        return _as_is(str)
    if kind is models.BooleanField:
        return _as_is(bool)
    if kind is models.DateTimeField:
        return _moment
    if kind is JSONField:
        return _json(field.encoder)  # type: ignore[attr-defined]
    return None


def _prepared(field: models.Field[Any, Any], value: Any, db: BaseDatabaseWrapper) -> Any:
    """``field.get_db_prep_save(value, db)``: a move writes some thirty values, and Django's
    calls for each took 2 to 4 % of its CPU (issue #15); :func:`_shortcut` where it
    applies."""
    quick = _shortcut(field)
    if quick is not None:
        found = quick(value, db)
        if found is not _SLOW:
            return found
    return field.get_db_prep_save(value, db)


def _keyed(db: BaseDatabaseWrapper, objs: Sequence[models.Model], keys: Sequence[Any]) -> None:
    """The new rows' keys given to their instances, which are now saved ones."""
    for obj, pk in zip(objs, keys, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = db.alias


class _Held:
    """The writes held by :func:`one_trip`: the fields to update per row, each with the
    instance whose value it takes (two instances of one row may each name their own; one
    UPDATE per row, whatever the number of calls: a statement may not change a row twice),
    and the INSERTs in order."""

    def __init__(self) -> None:
        self.updates: dict[tuple[type[models.Model], Any], dict[str, models.Model]] = {}
        self.inserts: list[list[models.Model]] = []

    def update(self, instance: models.Model, names: Sequence[str]) -> None:
        assert instance.pk is not None, "an update of a row that is not written yet"
        fields = self.updates.setdefault((type(instance), instance.pk), {})
        fields.update((n, instance) for n in names)


_held: ContextVar[_Held | None] = ContextVar("rows_held", default=None)


@contextmanager
def one_trip() -> Iterator[None]:
    """Hold this module's writes (:func:`insert`, :func:`update`) made inside the block and
    send them at its end: on PostgreSQL as ONE statement (data-modifying ``WITH`` clauses,
    a round trip instead of one per write), elsewhere one by one. A move writes its Move
    rows, the game, a seat or two and the outbox row: each round trip costs the request
    about a tenth of a millisecond of Python and driver work.

    What the block promises its writers: the rows are written as the instances are at the
    end of the block (an update names the fields, the values are read when sent), inserted
    instances get their keys at the end, and nothing is written if the block raises (the
    caller's transaction is being undone anyway). What it asks of them: not to read, inside
    the block, rows it holds writes for (nothing on the move path does: it works on the
    instances it read under the lock), nor to roll a savepoint back inside it (its held
    writes would still be sent). Blocks do not nest: an inner caller would get instances
    without keys."""
    assert _held.get() is None, "rows.one_trip() blocks do not nest"
    held = _Held()
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
    _send(held)


def _send(held: _Held) -> None:
    db = _db()
    if db.vendor != "postgresql" or len(held.inserts) + len(held.updates) < 2:
        for objs in held.inserts:
            insert(objs)
        with _cursor(db) as cursor:
            for fields in held.updates.values():
                cursor.execute(*_update_statement(db, fields))
        return
    statements = [_insert_statement(db, objs) for objs in held.inserts]
    statements += [_update_statement(db, fields) for fields in held.updates.values()]
    fold = _fold.get()
    commit = fold is not None and fold.begun  # (see move_transaction)
    sql, params = _together(statements, inserts=len(held.inserts), commit=commit)
    with _cursor(db) as cursor:
        cursor.execute(sql, params)
        if fold is not None and commit:
            fold.committed = True
        keys = cursor.fetchone() if held.inserts else ()
    assert keys is not None
    for objs, pks in zip(held.inserts, keys, strict=True):
        _keyed(db, objs, pks)


def _together(
    statements: Sequence[tuple[str, list[Any]]], inserts: int, commit: bool = False
) -> tuple[str, list[Any]]:
    """One PostgreSQL statement running ``statements`` (each in a ``WITH`` clause: all run,
    once, to completion, whether read or not). Its one row holds, for each of the first
    ``inserts`` statements (INSERTs ... RETURNING the key), the array of their keys in the
    order of their rows (the order ``RETURNING`` gives them in, as ``bulk_create`` relies
    on). ``commit``: the transaction's ``COMMIT`` follows it in the query string."""
    sql = _together_sql(tuple(sql for sql, _ in statements), inserts, commit)
    return sql, [p for _, params in statements for p in params]


@lru_cache(maxsize=256)
def _together_sql(statements: tuple[str, ...], inserts: int, commit: bool) -> str:
    """(Made once per set of statements: see :class:`_Statements`.)"""
    clauses = ", ".join(f"w{i} AS ({sql})" for i, sql in enumerate(statements))
    keys = ", ".join(f"ARRAY(SELECT * FROM w{i})" for i in range(inserts)) or "1"
    return f"WITH {clauses} SELECT {keys}" + ("; COMMIT" if commit else "")


class _Fold:
    """Where a :func:`move_transaction` stands: its ``BEGIN`` not sent yet, sent with the
    block's first statement, or its ``COMMIT`` sent with the held writes."""

    def __init__(self) -> None:
        self.begun = False
        self.committed = False

    def first(self, sql: str) -> bool:
        """Whether ``sql`` is the block's first statement, which carries the ``BEGIN``;
        nothing may follow the ``COMMIT``."""
        if self.committed:  # (a bug of the caller's; not an ``assert``: ``-O`` would drop it)
            raise AssertionError(f"a statement after the move's COMMIT: {sql[:80]}")
        first, self.begun = not self.begun, True
        return first

    def statement(self, sql: str) -> str:
        """``sql`` as the block sends it (the sender skips the ``BEGIN``'s empty result)."""
        return _begun(sql) if self.first(sql) else sql


@lru_cache(maxsize=64)
def _begun(sql: str) -> str:
    """``sql`` after a ``BEGIN`` (made once: see :class:`_Statements`)."""
    return f"BEGIN; {sql}"


_fold: ContextVar[_Fold | None] = ContextVar("rows_fold", default=None)


@contextmanager
def move_transaction() -> Iterator[None]:
    """``transaction.atomic()`` for the move path, two round trips shorter on PostgreSQL:
    the ``BEGIN`` goes in one query string with the block's first statement (the lock and
    the read) and the ``COMMIT`` with the block's writes (:func:`one_trip`), where psycopg
    would send each on its own (each round trip costs a move about a tenth of a
    millisecond of Python and driver work; issue #15). Django's ``atomic`` still wraps the
    block: a failure rolls back, ``on_commit`` callbacks run after the commit, which finds
    nothing left to commit.

    Only for the outermost block, on PostgreSQL with client-side binding and the server's
    isolation level (elsewhere, inside another block, or in a test's transaction: plain
    ``atomic``). The writes must be the block's last statement: one after them would run
    outside the transaction, so it is refused (``AssertionError``); a block that writes
    nothing through :func:`one_trip` is committed by ``atomic`` as usual."""
    with transaction.atomic():
        db = _db()
        if not _foldable(db):
            yield
            return
        db.connection.autocommit = True  # (psycopg: the BEGIN is ours to send)
        fold = _Fold()
        token = _fold.set(fold)
        try:
            with db.execute_wrapper(_folding):
                yield
        finally:
            _fold.reset(token)


def _foldable(db: BaseDatabaseWrapper) -> bool:
    """The block is a transaction of its own, not yet begun (not a savepoint: a test's
    transaction, or a caller who turned autocommit off, has one open)."""
    raw = db.connection
    return (
        _several_per_query(db)
        and len(db.atomic_blocks) == 1
        and not db.savepoint_ids
        and raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        and (raw.isolation_level, raw.read_only, raw.deferrable) == (None, None, None)
    )


def _folding(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """The execute wrapper of a :func:`move_transaction`: its first statement carries the
    ``BEGIN`` (whose empty result is skipped); nothing may follow its ``COMMIT``."""
    fold = _fold.get()
    if fold is None:  # (another thread's statement on a shared connection: not ours)
        return execute(sql, params, many, context)
    if many:  # (``executemany`` cannot carry it: the BEGIN goes first, on its own)
        if fold.first(sql):
            context["cursor"].cursor.execute("BEGIN")
        return execute(sql, params, many, context)
    sent = fold.statement(sql)
    found = execute(sent, params, many, context)
    if sent is not sql:
        context["cursor"].cursor.nextset()
    return found


def transaction_lock(key: int) -> None:
    """Hold PostgreSQL's advisory lock ``key`` until the caller's transaction ends: writers
    that must not interleave take it in turn (elsewhere, nothing: SQLite has one writer at
    a time)."""
    db = _db()
    if db.vendor == "postgresql":
        with _cursor(db) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


@cache
def _values_sql(
    model: type[models.Model], names: tuple[str, ...], key: str, count: int, vendor: str
) -> str:
    columns = ", ".join(_quoted(_field(model, n)) for n in names)
    keys = ", ".join(["%s"] * count)
    return f"SELECT {columns} FROM {_table(model)} WHERE {_quoted(_field(model, key))} IN ({keys})"


def values(
    model: type[models.Model], names: Sequence[str], *, key: str, keys: Sequence[Any]
) -> list[tuple[Any, ...]]:
    """``model.objects.filter(<key>__in=keys).values_list(*names)``, each value converted
    as the ORM would."""
    if not keys:
        return []
    wanted = tuple(names)
    db = _db()
    with _cursor(db) as cursor:
        cursor.execute(_values_sql(model, wanted, key, len(keys), db.vendor), list(keys))
        found = cursor.fetchall()
    return [tuple(_converted(db, model, wanted, row)) for row in found]


@cache
def _table_sql(
    game_names: tuple[str, ...],
    seat_names: tuple[str, ...],
    user_names: tuple[str, ...],
    vendor: str,
) -> str:
    user_model = Seat.user.field.related_model

    def listed(model: type[models.Model], alias: str, names: tuple[str, ...]) -> list[str]:
        return [f"{alias}.{_quoted(_field(model, n))}" for n in names]

    columns = ", ".join(
        listed(Game, "g", game_names)
        + listed(Seat, "s", seat_names)
        + listed(user_model, "u", user_names)
    )
    return f"SELECT {columns} {_game_seats_users()}"


def table_values(
    pk: int, game: Sequence[str], seat: Sequence[str], user: Sequence[str]
) -> tuple[list[Any], list[tuple[list[Any], list[Any] | None]]] | None:
    """The game's fields ``game`` and, for each of its seats in order, the seat's fields
    ``seat`` and its player's fields ``user`` (None for a bot seat), converted as the ORM
    would, in one statement without a lock; None if there is no such game. (What the game
    view's ETag is made of: see ``games.selectors.view_tag``.)"""
    names = (tuple(game), tuple(seat), tuple(user))
    user_model = Seat.user.field.related_model
    db = _db()
    with _cursor(db) as cursor:
        cursor.execute(_table_sql(*names, db.vendor), [pk])
        found = cursor.fetchall()
    if not found:
        return None
    n_game, n_seat = len(names[0]), len(names[1])
    game_values = _converted(db, Game, names[0], found[0][:n_game])
    seats: list[tuple[list[Any], list[Any] | None]] = []
    for row in found:
        seat_row, user_row = row[n_game : n_game + n_seat], row[n_game + n_seat :]
        if seat_row[0] is None:  # a game without seats (the LEFT JOIN's empty side)
            continue
        seat_values = _converted(db, Seat, names[1], seat_row)
        user_values = None
        if seat_values[names[1].index("user_id")] is not None:
            user_values = _converted(db, user_model, names[2], user_row)
        seats.append((seat_values, user_values))
    return game_values, seats


@cache
def _insert_new_sql(model: type[models.Model], vendor: str) -> str:
    insert = _insert_sql(model, 1, vendor)
    return insert.replace(" RETURNING ", " ON CONFLICT DO NOTHING RETURNING ", 1)


def insert_new(obj: models.Model) -> bool:
    """Insert ``obj`` (a new instance, automatic primary key) unless a row with the same
    unique values is there: ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` its key, one
    statement (PostgreSQL, SQLite 3.35+), where ``save`` in a savepoint, catching the
    unique violation, takes three round trips, or five in the worker's autocommit (the
    notifications' claim: creating their row is the claim). True: inserted, ``obj`` has
    its key; False: the row was there. Any other refusal (a check, a foreign key) raises.
    It answers at once: :func:`one_trip` does not hold it."""
    model = type(obj)
    fields = [f for f in _fields(model) if f is not model._meta.pk]
    db = _db()
    values = [_prepared(f, f.pre_save(obj, True), db) for f in fields]
    with _cursor(db) as cursor:
        cursor.execute(_insert_new_sql(model, db.vendor), values)
        found = cursor.fetchone()
    if found is None:
        return False
    _keyed(db, [obj], found)
    return True
