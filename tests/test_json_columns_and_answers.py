"""JSON made by orjson (issue #15) says what the standard library said: the API's answers
byte for byte, the JSON columns value for value; what orjson cannot take goes to the
standard library as before."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb
from rest_framework.renderers import JSONRenderer as DrfJSONRenderer

from games.engines.text import _
from lords.api.renderers import JSONEncoder, JSONRenderer
from lords.postgresql.base import json_text

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.text()
    | st.sampled_from(["\u2028", "a\u2029b", "é", "\x00", '"\\/'])
)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
STORABLE = (  # (PostgreSQL's jsonb holds no NUL character)
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.text().filter(lambda t: "\x00" not in t)
    | FLOATS
)
STORABLE_KEYS = st.text(max_size=5).filter(lambda t: "\x00" not in t)


KEYS = st.text(max_size=5)


def documents(scalars: Any, keys: Any = KEYS) -> Any:
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=20,
    )


class Drf(DrfJSONRenderer):
    encoder_class = JSONEncoder


def both(data: Any, media_type: str | None = None) -> tuple[bytes, bytes]:
    return JSONRenderer().render(data, media_type), Drf().render(data, media_type)


@settings(max_examples=300, deadline=None)
@given(documents(SCALARS))
def test_an_answer_is_the_same_bytes_as_drfs(data: Any) -> None:
    ours, drfs = both(data)
    assert ours == drfs


@settings(max_examples=200, deadline=None)
@given(documents(SCALARS | FLOATS))
def test_an_answer_with_floats_says_the_same_numbers(data: Any) -> None:
    ours, drfs = both([data])  # (None alone is rendered as no body at all)
    assert json.loads(ours) == json.loads(drfs)


def test_dates_words_and_odd_keys_are_rendered_as_drf_renders_them() -> None:
    data = {
        "at": datetime(2026, 11, 24, 12, 30, 15, 123456, tzinfo=UTC),
        "day": date(2026, 11, 24),
        "left": timedelta(hours=5),
        "said": _("%(name)s ends the turn.", name="Ada"),
        "lazy": gettext_lazy("Lords of Vegas"),
        1: "a number as a key",
        "tuple": (1, 2),
    }
    ours, drfs = both(data)
    assert ours == drfs
    assert b'"at":"2026-11-24T12:30:15.123456Z"' in ours
    indented = b'{\n    "a": [\n        1\n    ]\n}'
    assert both({"a": [1]}, "application/json; indent=4")[0] == indented


def test_what_orjson_refuses_is_refused_as_before() -> None:
    with pytest.raises(TypeError):
        JSONRenderer().render({"x": object()})


def _stored(value: Any, adapt: Any) -> Any:
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb", [adapt(value)])
        return cursor.fetchone()[0]


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend")
@settings(max_examples=100, deadline=None)
@given(documents(STORABLE, STORABLE_KEYS))
def test_a_json_column_stores_what_json_dumps_stored(value: Any) -> None:
    ours = _stored(value, lambda v: connection.ops.adapt_json_value(v, None))
    standard = _stored(value, lambda v: Jsonb(v, dumps=json.dumps))
    assert ours == standard


@pytest.mark.parametrize(
    "value",
    [_("%(name)s ends the turn.", name="Ada"), datetime(2026, 11, 24, tzinfo=UTC), object()],
    ids=["an engine's Text", "a datetime", "an object"],
)
def test_a_json_column_refuses_what_json_dumps_refused(value: Any) -> None:
    """orjson would write a dataclass (an engine's ``Text``) or a datetime on its own; a
    JSON column refuses them as before, so that such a bug fails where it is made."""
    with pytest.raises(TypeError):
        json_text([value])
