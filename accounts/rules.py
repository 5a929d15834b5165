"""The rules of a player's profile, shared by every door that changes it (the API's
``/me/`` and the web's ``/profile/``): one place, one message."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import available_timezones

from django.core.exceptions import ValidationError
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _

from accounts.models import MAX_AWAY_DAYS


def _readable(moment: datetime) -> str:
    """``1 Jan 2001, 10:00 (UTC)``: in the active time zone (the player's, on the pages)."""
    local = timezone.localtime(moment)
    return f"{dateformat.format(local, 'j M Y, H:i')} ({timezone.get_current_timezone_name()})"


def check_away_until(value: datetime | None, *, now: datetime | None = None) -> None:
    """A vacation ends in the future and at most ``MAX_AWAY_DAYS`` ahead (None: not away).
    Raises ``ValidationError`` with the message to show."""
    if value is None:
        return
    now = now or timezone.now()
    if value <= now:
        raise ValidationError(
            _(
                "%(when)s is in the past: give a time to come back in the future, "
                "or none to end your vacation."
            )
            % {"when": _readable(value)},
            code="past",
        )
    if value > now + timedelta(days=MAX_AWAY_DAYS):
        raise ValidationError(
            _(
                "%(when)s is more than %(days)s days ahead: set a vacation of at most "
                "%(days)s days (you may extend it later)."
            )
            % {"when": _readable(value), "days": MAX_AWAY_DAYS},
            code="too_far",
        )


def time_zones() -> set[str]:
    """Every IANA zone name the server knows (and UTC)."""
    global _ZONES
    if _ZONES is None:
        _ZONES = available_timezones() | {"UTC"}
    return _ZONES


_ZONES: set[str] | None = None
