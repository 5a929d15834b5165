"""The move path's shortcuts in ``games.services.rows`` give what Django gives: a new row's
instance (``rows.new`` against ``Model(...)``), a value prepared for the database
(``_prepared`` against ``get_db_prep_save``) and a JSON column read back (``_json_column``
against ``JSONField.from_db_value``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, models
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from games.models import Announcement, Game, Move, Seat
from games.services import rows

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)


def _comparable(value: Any) -> Any:
    """A prepared value as it would reach the database (``Jsonb``: its text), with its
    type (``True == 1``: a flag written into an integer column must become 1)."""
    if isinstance(value, Jsonb):
        assert value.dumps is not None
        return ("jsonb", value.dumps(value.obj))
    return (type(value), value)


def _values_for(field: models.Field[Any, Any]) -> st.SearchStrategy[Any]:
    if isinstance(field, models.JSONField):
        return json_values
    if isinstance(field, models.DateTimeField):
        zones = st.sampled_from([UTC, timezone.get_fixed_timezone(90)])
        return st.none() | st.datetimes(timezones=zones) | st.datetimes()  # naive too
    if isinstance(field, models.BooleanField):
        return st.none() | st.booleans() | st.integers(0, 1)
    if isinstance(field, models.DurationField):
        return st.none() | st.timedeltas(max_value=timedelta(days=999))
    if isinstance(field, models.CharField | models.TextField):
        return st.none() | st.text(max_size=8) | st.integers(0, 9)
    return st.none() | st.integers(0, 2**31 - 1) | st.booleans() | st.text("0123456789", min_size=1)


FIELDS = [f for m in (Move, Announcement, Game, Seat) for f in m._meta.concrete_fields]


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:DateTimeField .* naive datetime:RuntimeWarning")
@settings(max_examples=300, deadline=None)
@given(data=st.data(), field=st.sampled_from(FIELDS))
def test_a_value_is_prepared_as_django_prepares_it(data: st.DataObject, field: Any) -> None:
    value = data.draw(_values_for(field))
    try:
        expected = _comparable(field.get_db_prep_save(value, connection))
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            rows._prepared(field, value, connection)
        return
    assert _comparable(rows._prepared(field, value, connection)) == expected


@settings(max_examples=300, deadline=None)
@given(
    value=json_values
    | st.integers()
    | st.sampled_from([2**64, 2**64 + 1, -(2**63) - 1, [0, 2**70]])  # (beyond 64 bits)
    | st.floats(allow_nan=False)
    | st.lists(st.text(st.characters(categories=["Cs"]), max_size=2), max_size=2)  # surrogates
    | st.sampled_from(["{}", "[]", "not json", '{"a": [1, {}]}', '{"a": 1, "a": 2}'])
)
def test_a_json_column_is_read_as_django_reads_it(value: Any) -> None:
    """The same values, of the same types (``repr``: an int read as a float differs)."""
    text = value if isinstance(value, str) else json.dumps(value)
    field = Game._meta.get_field("state")
    col = field.get_col(Game._meta.db_table)
    ours, django_s = (
        rows._json_column(text, col, connection),
        field.from_db_value(text, col, connection),
    )
    assert repr(ours) == repr(django_s)
    assert rows._json_column(None, col, connection) is None


@pytest.mark.django_db
def test_a_new_row_is_the_instance_django_makes(make_game: Any, ada: Any, bob: Any) -> None:
    game = make_game(ada, bob)
    seat = Seat.objects.get(game=game, order=0)
    asked: dict[str, Any] = {
        "game": game,
        "seq": 3,
        "seat": seat,
        "command": {"type": "place", "number": 4},
        "text": "place 4",
        "events": [{"type": "roll"}],
        "source": "api",
        "idempotency_key": None,
        "request_fingerprint": "",
        "batch": 3,
    }
    assert rows._plain(Move) and rows._plain(Announcement)  # (made without __init__)
    made, django_s = rows.new(Move, **asked), Move(**asked)
    assert {k: v for k, v in vars(made).items() if k != "_state"} == {
        k: v for k, v in vars(django_s).items() if k != "_state"
    }
    assert (made._state.adding, made._state.db) == (django_s._state.adding, django_s._state.db)
    assert made.game is game and made.seat is seat  # cached: no query
    bare = rows.new(Announcement, game_id=game.pk, seqs=[3])
    assert bare.details == {} and bare.attempts == 0 and bare.created_at is None
    assert vars(bare)["details"] is not vars(rows.new(Announcement, game_id=game.pk))["details"]
    with pytest.raises(TypeError):
        rows.new(Announcement, game_id=game.pk, nonsense=1)


@pytest.mark.django_db
def test_a_new_row_made_and_written_reads_back_the_same(make_game: Any, ada: Any, bob: Any) -> None:
    game = make_game(ada, bob)
    made = rows.new(Announcement, game=game, seqs=[1, 2])
    rows.insert([made])
    stored = Announcement.objects.get(pk=made.pk)
    assert (stored.game_id, stored.seqs, stored.details, stored.last_error) == (
        game.pk,
        [1, 2],
        {},
        "",
    )
    assert stored.created_at == made.created_at
    assert isinstance(made.created_at, datetime)
