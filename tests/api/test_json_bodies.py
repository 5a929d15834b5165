"""The API's JSON parser reads a body as DRF's does (the same data, or a refusal where DRF
refuses, said in the reader's language), and refuses one nested deeper than the limit
however its brackets are spread."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import parsers as drf
from rest_framework.exceptions import ParseError

from lords.api.parsers import JSONParser, TooDeep

documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=20,
)


def _read(parser: Any, raw: bytes, encoding: str | None = None) -> Any:
    context = {} if encoding is None else {"encoding": encoding}
    try:
        return ("data", parser.parse(io.BytesIO(raw), "application/json", context))
    except ParseError as exc:
        return ("refused", str(exc.detail))


def _refused(message: str) -> bool:
    return message.startswith("The body is not") or message.startswith("Unsupported charset")


@given(
    raw=documents.map(lambda d: json.dumps(d).encode())
    | st.binary(max_size=40)
    | st.text(max_size=40).map(str.encode),
    encoding=st.sampled_from([None, "utf-8", "latin-1", "utf-16"]),
)
def test_a_body_reads_as_drf_reads_it(raw: bytes, encoding: str | None) -> None:
    ours, drf_s = _read(JSONParser(), raw, encoding), _read(drf.JSONParser(), raw, encoding)
    assert ours[0] == drf_s[0]
    if ours[0] == "data":  # (NaN is never equal to itself)
        assert json.dumps(ours[1]) == json.dumps(drf_s[1])
    else:
        assert _refused(ours[1]), ours[1]


@pytest.mark.parametrize(
    ("raw", "language", "said"),
    [
        (
            b'{"command": "place 1"',
            "fr",
            "Le corps n'est pas du JSON\u00a0: il s'interrompt à la ligne 1",
        ),
        (b'{"command": "place 1"', "it", "Il corpo non è JSON: si interrompe alla riga 1"),
        (b'{"command": "\xff"}', "en", "The body is not text in utf-8."),
        (b"\xff\xfe", "fr", "Le corps n'est pas du texte en utf-8"),
        (b"[NaN]", "fr", "Le corps n'est pas du JSON\u00a0: NaN et Infinity"),
    ],
)
def test_a_body_that_is_not_json_is_refused_in_the_readers_language(
    raw: bytes, language: str, said: str
) -> None:
    with translation.override(language):
        refused = _read(JSONParser(), raw)
    assert refused[0] == "refused" and refused[1].startswith(said), refused


def test_a_utf16_body_without_its_byte_order_mark_is_said_not_to_be_utf16() -> None:
    """Python cannot read UTF-16 without a BOM (a ``UnicodeError``, not a decode error):
    the refusal said NaN and Infinity are not numbers, of a body that held neither."""
    raw = '{"command": "end"}'.encode("utf-16-be")
    with translation.override("en"):
        refused = _read(JSONParser(), raw, "utf-16")
    assert refused == ("refused", "The body is not text in utf-16.")


def test_many_brackets_side_by_side_are_not_deep() -> None:
    limit = settings.API_MAX_JSON_DEPTH
    wide = json.dumps({"command": "end", "lists": [[] for _ in range(limit * 3)]}).encode()
    assert _read(JSONParser(), wide)[1]["lists"] == [[] for _ in range(limit * 3)]
    brackets_in_text = json.dumps({"command": "[" * (limit * 3)}).encode()
    assert _read(JSONParser(), brackets_in_text)[1] == {"command": "[" * (limit * 3)}


@pytest.mark.parametrize("levels", [settings.API_MAX_JSON_DEPTH + 1, 5_000])
def test_a_body_deeper_than_the_limit_is_refused(levels: int) -> None:
    raw = ("[" * levels + "]" * levels).encode()
    with pytest.raises(TooDeep):
        JSONParser().parse(io.BytesIO(raw), "application/json", {})
    exact = settings.API_MAX_JSON_DEPTH
    assert _read(JSONParser(), ("[" * exact + "]" * exact).encode())[0] == "data"
