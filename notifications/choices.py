"""The player's email choices as moments: when their quiet hours end, when their next
digest is due, which reminder lead times are theirs, which games they muted.

Every moment is computed in the player's zone with :mod:`zoneinfo` (a wall-clock time on a
date, then converted), so "08:00" stays 08:00 on both sides of a daylight-saving change.
See ``docs/decisions/0017-email-choices-and-digest.md``.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, time, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

from django.conf import settings

from accounts.models import zone_named
from games import clocks
from games.services import rows
from notifications.models import EmailPreference, GameMute

MAX_LEAD_HOURS = 168
"""The longest reminder lead time a player may choose (a week)."""
MAX_LEADS = 3
"""How many reminder lead times a player may choose."""


def _at(day: Any, hour: time, zone: ZoneInfo) -> datetime:
    """The wall-clock ``hour`` on ``day`` in ``zone``, in UTC (a time skipped by a DST
    change reads as the offset before it, so it still happens once)."""
    return datetime.combine(day, hour, tzinfo=zone).astimezone(UTC)


def quiet_end(pref: EmailPreference, zone_name: str, now: datetime) -> datetime | None:
    """When the player's quiet hours end, if ``now`` falls inside them; else None (the
    game clock's arithmetic: ``games.clocks.quiet_end``)."""
    start, end = pref.quiet_from, pref.quiet_until
    if start is None or end is None:
        return None
    return clocks.quiet_end(now, clocks.QuietHours(start, end, zone_named(zone_name)))


def quiet_hours_of(users: Collection[Any]) -> dict[int, tuple[time, time]]:
    """The quiet hours of those of ``users`` who have them, for the game clock (which moves
    a deadline out of them; ``games.services.clock.QUIET_HOURS``). On the move path the
    game's read brings each player's choices (``games.services.rows.PLAYER_ROWS``); else
    one query (through ``rows``, without the ORM's query building)."""
    related = EmailPreference.user.field.remote_field
    if all(related.is_cached(user) for user in users):
        prefs = [cast(EmailPreference | None, related.get_cached_value(u)) for u in users]
        found = [(p.user_id, p.quiet_from, p.quiet_until) for p in prefs if p is not None]
    else:
        keys = [user.pk for user in users]
        found = rows.values(
            EmailPreference, ("user_id", "quiet_from", "quiet_until"), key="user", keys=keys
        )
    return {
        user_id: (start, end)
        for user_id, start, end in found
        if start is not None and end is not None and start != end
    }


def next_digest(hour: int, zone_name: str, now: datetime) -> datetime:
    """The first moment after ``now`` when it is ``hour``:00 in the player's zone (UTC)."""
    zone = zone_named(zone_name)
    today = now.astimezone(zone).date()
    for days in (0, 1, 2):  # (2: a day that skips the hour in its DST change)
        moment = _at(today + timedelta(days=days), time(hour), zone)
        if moment > now:
            return moment
    raise AssertionError("unreachable: an hour comes back within two days")


def lead_times(pref: EmailPreference) -> list[float]:
    """The player's reminder lead times in hours, largest first (the server's single one
    when they chose none)."""
    chosen = [float(h) for h in pref.remind_before or []]
    return sorted(chosen or [float(settings.NOTIFICATIONS_REMIND_BEFORE_HOURS)], reverse=True)


def muted_users(game_id: int) -> set[int]:
    """The users who muted the game."""
    return set(GameMute.objects.filter(game_id=game_id).values_list("user_id", flat=True))


def check_lead_times(value: Any) -> list[int]:
    """The reminder lead times a player typed ("24, 2") or sent (a list), as whole hours,
    largest first; ``ValueError`` with the reason (in the active language) when they are
    not 1 to 3 whole numbers of hours between 1 and 168."""
    from django.utils.translation import gettext

    if isinstance(value, str):
        parts = [p for p in value.replace(";", ",").replace(" ", ",").split(",") if p]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = [value]
    reason = gettext(
        "Reminder lead times: up to %(n)s whole numbers of hours between 1 and %(max)s, "
        "separated by commas (for example: 24, 2)."
    ) % {"n": MAX_LEADS, "max": MAX_LEAD_HOURS}
    hours: set[int] = set()
    for part in parts:
        text = str(part).strip().removesuffix("h")
        if isinstance(part, bool) or not _digits(text) or not 1 <= int(text) <= MAX_LEAD_HOURS:
            raise ValueError(reason)
        hours.add(int(text))
    if len(hours) > MAX_LEADS:
        raise ValueError(reason)
    return sorted(hours, reverse=True)


def _digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits: ``str.isdigit`` also takes "²"
    (which ``int`` refuses: Python's error reached the page) and "٣" (which ``int`` reads:
    saved as 3), found by play-testing."""
    return text.isascii() and text.isdigit()


def check_quiet_hours(
    quiet_from: time | None, quiet_until: time | None, digest: bool, digest_hour: int
) -> None:
    """Quiet hours come as a pair that ends at another time than it starts (hours from
    22:00 until 22:00 silence nothing: they were saved without a word, found by
    play-testing), and a digest hour may not fall inside them (it would never be sent at
    its hour); ``ValueError`` with the reason."""
    from django.utils.translation import gettext

    if (quiet_from is None) != (quiet_until is None):
        raise ValueError(gettext("Quiet hours need both a start and an end (or neither)."))
    if quiet_from is None or quiet_until is None:
        return
    if quiet_from == quiet_until:
        raise ValueError(
            gettext(
                "Quiet hours from %(time)s until %(time)s silence nothing: give an end other "
                "than the start, or no quiet hours."
            )
            % {"time": quiet_from.strftime("%H:%M")}
        )
    hour = time(digest_hour)
    inside = (
        quiet_from <= hour < quiet_until
        if quiet_from < quiet_until
        else hour >= quiet_from or hour < quiet_until
    )
    if digest and inside:
        raise ValueError(gettext("Your digest hour falls in your quiet hours: choose another."))


def saved_quiet_hours(pref: EmailPreference) -> tuple[time | None, time | None]:
    """The player's quiet hours as the doors show them: none when they end when they start
    (saved before ``check_quiet_hours`` refused such hours; they silence nothing, and shown
    they would stop every save of the other choices)."""
    if pref.quiet_from is None or pref.quiet_from == pref.quiet_until:
        return None, None
    return pref.quiet_from, pref.quiet_until
