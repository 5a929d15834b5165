"""What the API's input must be, strictly (docs/decisions/0025-an-api-that-takes-json-only.md).

DRF's fields are lenient, made for forms as much as for JSON: an ``IntegerField`` takes
``"3"``, ``3.0`` and ``"1_0"``, a ``BooleanField`` takes ``"yes"``, ``"off"`` and ``1``, a
``CharField`` takes ``0`` (stored ``"0"``) and ``1e400`` (stored ``"inf"``). A JSON API
should take a JSON integer for an integer, a JSON boolean for a boolean and a JSON string
for a string, and refuse the rest, so a client's slip is told, not guessed at (found by
fuzzing). Query parameters are text by nature: an integer there is ASCII digits (DRF also
read ``+3``, ``1_0``, ``1.0`` and other scripts' digits) and an empty one is refused rather
than taken as absent.

A body's field the serializer does not declare is refused too (``400 invalid``, naming it),
nested objects included: DRF drops it silently, so a misspelled ``expected_version``
(``expectedVersion``) turned off the stale-version check and the move was played (found by
a bot's author, docs/decisions/0039). A read-only field (``id`` of the profile) is declared:
a client may send back what it read. Query parameters an endpoint does not know stay
ignored, as the docs say.

The rule is checked against the serializer's own fields, nested ones included (the apps'
parts of the profile too), before DRF's validation: the serializers stay DRF's, declared as
usual, and :func:`checked` is the one way a view validates (``lords.api.base.valid``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers

Rule = tuple[Callable[[Any], bool], Any]

_INTEGER: Rule = (
    lambda value: isinstance(value, int) and not isinstance(value, bool),
    _('Must be a JSON integer, such as 3 (not "3" or 3.0).'),
)
_BOOLEAN: Rule = (
    lambda value: isinstance(value, bool),
    _("Must be true or false (a JSON boolean, not text or a number)."),
)
_STRING: Rule = (
    lambda value: isinstance(value, str),
    _("Must be a JSON string, in double quotes."),
)
_EMPTY = _("Is empty: give a value or leave the parameter out.")
_DIGITS = _("Must be a whole number in the digits 0 to 9.")
_UNKNOWN = _("Unknown field, not read: nothing was done. Did you mean %(name)s?")
_UNKNOWN_NO_GUESS = _("Unknown field, not read: nothing was done. The fields here: %(names)s.")


def checked(serializer: serializers.BaseSerializer[Any]) -> None:
    """``serializer.is_valid(raise_exception=True)``, after the types above: a 400 in the
    one shape (``detail.fields``) for a value of the wrong type, whatever else is wrong."""
    data = serializer.initial_data
    if isinstance(data, QueryDict):
        found = _query_errors(serializer, data)
    else:
        found = _json_errors(serializer, data)
    if found:
        raise exceptions.ValidationError(found)
    serializer.is_valid(raise_exception=True)


def _rule(field: serializers.Field[Any, Any, Any, Any]) -> Rule | None:
    """The JSON type a field takes, if it is one of the plain ones."""
    if isinstance(field, serializers.BooleanField):
        return _BOOLEAN
    if isinstance(field, serializers.IntegerField):
        return _INTEGER
    if isinstance(field, serializers.CharField):
        return _STRING
    if isinstance(field, serializers.ChoiceField) and all(
        isinstance(choice, str) for choice in field.choices
    ):
        return _STRING
    return None


def _json_errors(field: Any, value: Any) -> Any:
    """The errors of ``value`` for ``field`` as DRF shapes them (a list of messages, or a
    dict by field name or list index), or None. ``null`` is left to ``allow_null``."""
    if value is None:
        return None
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if not isinstance(value, list):
            return None  # (the field says it wants a list)
        return _some({i: _json_errors(field.child, item) for i, item in enumerate(value)})
    if isinstance(field, serializers.DictField):
        if not isinstance(value, Mapping):
            return None
        return _some({key: _json_errors(field.child, item) for key, item in value.items()})
    if isinstance(field, serializers.Serializer):
        if not isinstance(value, Mapping):
            return None  # (the serializer says it wants an object)
        known = field.fields
        found = {
            name: _json_errors(sub, value[name])
            for name, sub in known.items()
            if not sub.read_only and name in value
        }
        writable = [name for name, sub in known.items() if not sub.read_only]
        return _some(found | _unknown(list(known), writable, value))
    rule = _rule(field)
    if rule is None or rule[0](value):
        return None
    return [str(rule[1])]


def _unknown(
    known: list[str], writable: list[str], value: Mapping[Any, Any]
) -> dict[str, list[str]]:
    """Each key of ``value`` that is not a field, with the closest field one may send if
    one is close (``expectedVersion``, ``expected_verison``: ``expected_version``); a
    read-only field is let through (a client sends back what it read) but never suggested."""
    found: dict[str, list[str]] = {}
    for key in value:
        if key in known:
            continue
        guess = difflib.get_close_matches(str(key).lower(), writable, n=1, cutoff=0.6)
        if guess:
            found[str(key)] = [str(_UNKNOWN) % {"name": guess[0]}]
        else:
            found[str(key)] = [str(_UNKNOWN_NO_GUESS) % {"names": ", ".join(writable)}]
    return found


def _some(found: Mapping[Any, Any]) -> dict[Any, Any] | None:
    """The entries that hold errors, or None."""
    return {key: errors for key, errors in found.items() if errors} or None


def _query_errors(serializer: Any, query: QueryDict) -> dict[str, list[str]] | None:
    """Query parameters: none empty; an integer in ASCII digits, with a minus sign at most
    (DRF's ``int()`` read ``+3``, ``1_0``, ``1.0``, ``٣``). Unknown ones are ignored."""
    found: dict[str, list[str]] = {}
    for name, field in serializer.fields.items():
        if name not in query:
            continue
        value = str(query[name])
        digits = value.removeprefix("-")
        if not value:
            found[name] = [str(_EMPTY)]
        elif isinstance(field, serializers.IntegerField) and not (
            digits.isascii() and digits.isdigit()
        ):
            found[name] = [str(_DIGITS)]
    return found or None
