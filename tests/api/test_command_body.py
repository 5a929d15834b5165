"""A move's body read by the fast path (``plain_command``) gives what the serializer gives:
for every body, either the fast path steps aside (None) or the two agree exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.serializers import MAX_COMMAND_TEXT, CommandSerializer, plain_command
from lords.api.base import valid

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0, 12, 2**31 - 1, 2**31, -1]),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["place 4", " ", "", "\x00", "\ud800", "é" * (MAX_COMMAND_TEXT + 1), "12"]),
    st.dictionaries(st.sampled_from(["type", "number"]), st.integers(0, 6), max_size=2),
    st.lists(st.dictionaries(st.just("type"), st.just("end"), max_size=1), max_size=2),
)
_bodies = st.dictionaries(
    st.sampled_from(["command", "expected_version", "other"]), _values, max_size=3
)


def _serializer(data: Any) -> dict[str, Any] | None:
    try:
        return valid(CommandSerializer, data)
    except ValidationError:
        return None


@given(_bodies)
def test_the_fast_path_agrees_with_the_serializer_or_steps_aside(data: dict[str, Any]) -> None:
    fast = plain_command(data)
    if fast is not None:
        assert fast == _serializer(data)


def test_the_everyday_bodies_take_the_fast_path() -> None:
    assert plain_command({"command": "place 4"}) == {"command": None, "text": "place 4"}
    assert plain_command({"command": "end", "expected_version": 12}) == {
        "command": None,
        "text": "end",
        "expected_version": 12,
    }
    assert plain_command({"command": {"type": "end"}}) is None  # JSON: the serializer
    assert plain_command({"command": "end", "expected_version": "12"}) is None
