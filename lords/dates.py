"""Dates and times as each language writes them: one place for every page and email.

Django's ``M`` (month abbreviation) is English in every language ("jeu 26 Nov"), so the
formats are themselves translatable: the catalogs give each language its own (French
``D j N``: "jeu. 26 nov."). The day's abbreviation (``D``) is ours too: Django's Italian
capitalises it ("scaduto il Mar 24 nov"), where Italian, like French, writes the days in
lower case. Times are shown in the active time zone (the reader's).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import dateformat, timezone
from django.utils.translation import pgettext, pgettext_lazy

_DAYS = (
    pgettext_lazy("weekday abbreviation", "Mon"),
    pgettext_lazy("weekday abbreviation", "Tue"),
    pgettext_lazy("weekday abbreviation", "Wed"),
    pgettext_lazy("weekday abbreviation", "Thu"),
    pgettext_lazy("weekday abbreviation", "Fri"),
    pgettext_lazy("weekday abbreviation", "Sat"),
    pgettext_lazy("weekday abbreviation", "Sun"),
)
_WEEKDAYS = (
    pgettext_lazy("weekday", "Monday"),
    pgettext_lazy("weekday", "Tuesday"),
    pgettext_lazy("weekday", "Wednesday"),
    pgettext_lazy("weekday", "Thursday"),
    pgettext_lazy("weekday", "Friday"),
    pgettext_lazy("weekday", "Saturday"),
    pgettext_lazy("weekday", "Sunday"),
)
"""The days written out, for a deadline: "Réponds d'ici le jeu. 26 nov." read as "by the
game" ("jeu" is a game in French; found by play-testing). Ours too, lower case in French
and Italian as Django's Italian does not write them."""


class _Format(dateformat.DateFormat):
    """Django's formatter with the day's name and abbreviation from our catalogs."""

    data: datetime

    def D(self) -> str:  # (named as the format character it writes)
        return str(_DAYS[self.data.weekday()])

    def l(self) -> str:  # noqa: E743 (named as the format character it writes)
        return str(_WEEKDAYS[self.data.weekday()])


def _formats() -> dict[str, str]:
    return {
        "day": pgettext("date format (PHP style, Django's date filter)", "D j M"),
        "time": pgettext("date format (PHP style, Django's date filter)", "D j M, H:i"),
        "year": pgettext("date format (PHP style, Django's date filter)", "j M Y, H:i"),
        "full": pgettext("date format (PHP style, Django's date filter)", "D j M Y, H:i"),
        "log": pgettext("date format (PHP style, Django's date filter)", "j M H:i"),
        "deadline": pgettext("date format (PHP style, Django's date filter)", "l j M, H:i"),
    }


def when(moment: datetime | None, style: str = "time") -> str:
    """``moment`` in the active language and time zone, in one of the styles: ``day``
    (Thu 26 Nov), ``time`` (Thu 26 Nov, 18:00), ``year`` (26 Nov 2026, 18:00), ``full``
    (Thu 26 Nov 2026, 18:00), ``log`` (26 Nov 18:00), ``deadline`` (Thursday 26 Nov, 18:00:
    the emails' "Reply by"); "" without a moment."""
    if moment is None:
        return ""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return _Format(local).format(_formats()[style])
