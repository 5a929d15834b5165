"""Dates and times as each language writes them: one place for every page and email.

Django's ``M`` (month abbreviation) is English in every language ("jeu 26 Nov"), so the
formats are themselves translatable: the catalogs give each language its own (French
``D j N``: "jeu 26 nov."). Times are shown in the active time zone (the reader's).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import dateformat, timezone
from django.utils.translation import pgettext


def _formats() -> dict[str, str]:
    return {
        "day": pgettext("date format (PHP style, Django's date filter)", "D j M"),
        "time": pgettext("date format (PHP style, Django's date filter)", "D j M, H:i"),
        "year": pgettext("date format (PHP style, Django's date filter)", "j M Y, H:i"),
        "full": pgettext("date format (PHP style, Django's date filter)", "D j M Y, H:i"),
        "log": pgettext("date format (PHP style, Django's date filter)", "j M H:i"),
    }


def when(moment: datetime | None, style: str = "time") -> str:
    """``moment`` in the active language and time zone, in one of the styles: ``day``
    (Thu 26 Nov), ``time`` (Thu 26 Nov, 18:00), ``year`` (26 Nov 2026, 18:00), ``full``
    (Thu 26 Nov 2026, 18:00), ``log`` (26 Nov 18:00); "" without a moment."""
    if moment is None:
        return ""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return dateformat.format(local, _formats()[style])
