"""Words for a player, in the reader's language: what an engine says is a :class:`Text`, a
message id with parameters, not a finished English sentence.

An engine stays pure (no Django, no catalog, no I/O): it writes ``_("%(name)s ends the
turn.", name=who)`` and ``ngettext("%(n)s point", "%(n)s points", n, n=n)``. The msgid is
the English sentence, so ``str()`` of a Text with no translator installed is plain English
(tests, scripts, logs). The platform installs one translator at start-up
(:func:`install_translator`, called by the games app with Django's ``gettext`` and
``ngettext``); from then on ``str(text)`` renders it in the language active in the
thread, as Django's lazy strings do, so a template, an email and an API answer each say it
in their reader's language without knowing where it came from. ``makemessages`` finds the
msgids because the constructors are named ``_`` and ``ngettext``, keywords xgettext knows.

Parameters may be Texts themselves (a colour's name in a sentence): they are rendered in the
same language first. Names of people and lots, numbers and notation are plain values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _english(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def _english_number(value: int) -> str:
    return f"{value:,}"


def _as_written(template: str, params: Mapping[str, Any]) -> str:
    return template


_translator: dict[str, Any] = {
    "gettext": _english,
    "ngettext": _english_plural,
    "number": _english_number,
    "fit": _as_written,
}


def install_translator(
    gettext: Gettext,
    ngettext: Ngettext,
    number: Callable[[int], str] | None = None,
    fit: Callable[[str, Mapping[str, Any]], str] | None = None,
) -> None:
    """Render every Text through these from now on (the platform's catalogs, its way of
    writing a number in the active language: ``50,000``, ``50 000``, ``50.000``, and its
    way of fitting a translated sentence to the words put in it: French "de Ada" is
    written "d'Ada")."""
    _translator["gettext"] = gettext
    _translator["ngettext"] = ngettext
    _translator["number"] = number or _english_number
    _translator["fit"] = fit or _as_written


@dataclass(frozen=True)
class Number:
    """A number written as the reader's language writes it (grouped thousands)."""

    value: int

    def __str__(self) -> str:
        return str(_translator["number"](self.value))


@dataclass(frozen=True)
class Text:
    """A message id (the English sentence, with ``%(name)s`` placeholders) and its
    parameters; ``plural`` and ``count`` for a sentence that agrees with a number."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def __str__(self) -> str:
        if self.plural is not None and self.count is not None:
            template = str(_translator["ngettext"](self.msgid, self.plural, self.count))
        else:
            template = str(_translator["gettext"](self.msgid))
        if not self.params:
            return template
        rendered = {key: _rendered(value) for key, value in self.params.items()}
        fitted: str = _translator["fit"](template, rendered)
        return fitted % rendered

    def to_json(self) -> dict[str, Any]:
        """The message id and its parameters, for a client that translates itself."""
        out: dict[str, Any] = {"msgid": self.msgid}
        if self.params:
            out["params"] = {k: _json(v) for k, v in self.params.items()}
        if self.plural is not None:
            out["plural"], out["count"] = self.plural, self.count
        return out


def from_json(data: Any) -> Any:
    """A :class:`Text` back from :meth:`Text.to_json` (a sentence kept in a stored event),
    so that it is said in the reader's language; anything else (a plain string of an older
    event, a number) stays as it is."""
    if isinstance(data, dict) and "msgid" in data:
        params = {key: from_json(value) for key, value in data.get("params", {}).items()}
        return Text(str(data["msgid"]), params, data.get("plural"), data.get("count"))
    if isinstance(data, list):
        return Join([from_json(item) for item in data])
    return data


def _rendered(value: Any) -> Any:
    if isinstance(value, Text | Join | Number):
        return str(value)
    return value


def _json(value: Any) -> Any:
    if isinstance(value, Text):
        return value.to_json()
    if isinstance(value, Join):
        return [_json(item) for item in value.items]
    if isinstance(value, Number):
        return value.value
    return value


@dataclass(frozen=True)
class Join:
    """Items written one after another with ``separator`` (each item rendered first)."""

    items: Sequence[Any]
    separator: str = ", "

    def __str__(self) -> str:
        return self.separator.join(str(_rendered(item)) for item in self.items)


def _(msgid: str, /, **params: Any) -> Text:
    """A sentence to translate (the English is its id)."""
    return Text(msgid, params)


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> Text:
    """A sentence that agrees with ``count`` (pass the number among ``params`` too)."""
    return Text(singular, params, plural, count)


def and_list(items: Sequence[Any]) -> Any:
    """ "A", "A and B", "A, B and C", in the reader's language."""
    if len(items) == 1:
        return items[0]
    return _("%(items)s and %(last)s", items=Join(items[:-1]), last=items[-1])


def say(value: Any) -> str:
    """A Text (or anything) as a string in the active language."""
    return str(value)
