"""The API's JSON: DRF's, and what the engines say (:class:`~games.engines.text.Text`) as a
string in the reader's language, as Django's lazy strings are."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import JSONRenderer as DrfJSONRenderer
from rest_framework.utils.encoders import JSONEncoder as DrfJSONEncoder

from games.engines.text import Join, Text


class JSONEncoder(DrfJSONEncoder):
    def default(self, obj: Any) -> Any:
        if isinstance(obj, Text | Join):
            return str(obj)
        return super().default(obj)


class JSONRenderer(DrfJSONRenderer):
    encoder_class = JSONEncoder
