"""The rules of a player's profile, shared by every door that changes it (the API's
``/me/`` and the web's ``/profile/``): one place, one message."""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError
from django.db.models import Value
from django.db.models.functions import Lower
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import MAX_AWAY_DAYS, NAME_CONSTRAINT, unnamed
from lords.dates import when


def _readable(moment: datetime) -> str:
    """``1 Jan 2001, 10:00 (UTC)``: in the active time zone (the player's, on the pages)."""
    return f"{when(moment, 'year')} ({timezone.get_current_timezone_name()})"


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


def away_until_to_save(
    value: datetime | None, saved: datetime | None, *, now: datetime | None = None
) -> datetime | None:
    """The vacation end to store for ``value`` sent by a door while ``saved`` is stored.

    A vacation that has ended leaves its end on the player's row; a page opened before the
    end, or a client sending back the profile it read, sends that end again. It is not a new
    vacation in the past but the old one, over: None (found by play-testing: every save of
    the settings page was refused). It is the saved end when it is the same to the minute
    (the page's field has no seconds). Any other value is checked by ``check_away_until``."""
    now = now or timezone.now()
    if value is not None and saved is not None and value <= now and _same_minute(value, saved):
        return None
    check_away_until(value, now=now)
    return value


def shown_away_until(saved: datetime | None, *, now: datetime | None = None) -> datetime | None:
    """The vacation end a form shows: none once it has passed (the vacation is over)."""
    if saved is None or saved <= (now or timezone.now()):
        return None
    return saved


def _same_minute(one: datetime, other: datetime) -> bool:
    return one.replace(second=0, microsecond=0) == other.replace(second=0, microsecond=0)


MAX_NAME_LENGTH = 40
"""A display name has at most this many characters (after trimming; the column's size)."""

_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
"""Unicode categories a name may not hold: controls (CR, LF, tab, escape...), format
characters (zero-width, bidirectional overrides), surrogates, private use, unassigned, and
the line and paragraph separators. They would break an email header or a log line, or make
a name look like another one."""


def _looks_like_an_address(name: str) -> bool:
    """A name a player, an email or an admin's form would take for an address: another
    person's, worn as a name, or one the league forms read as an address to invite (found
    by review)."""
    try:
        validate_email(name)
    except ValidationError:
        return False
    return True


NAME_REQUIRED = gettext_lazy("Choose a display name: it is what other players see of you.")


def check_display_name(value: str, *, user: Any = None) -> str:
    """The name as stored: trimmed of surrounding whitespace. Raises ``ValidationError``
    with the message to show for an empty name, a name holding control or format
    characters or longer than ``MAX_NAME_LENGTH``, or one another person has (``user``: the
    person it is for, if they exist yet; names are compared without case).

    A name is required (found by a privacy test: an account without one was shown as the
    part of its email address before the @) and each is one person's, so that two players
    of a table are never both "Ada"."""
    name = value.strip()
    if not name:
        raise ValidationError(str(NAME_REQUIRED), code="required")
    if any(unicodedata.category(char) in _INVISIBLE for char in name):
        raise ValidationError(
            _(
                "A display name may not contain control characters (line breaks, tabs, "
                "invisible or text-direction marks): use letters, digits, spaces and "
                "punctuation."
            ),
            code="control_characters",
        )
    if _looks_like_an_address(name):
        raise ValidationError(
            _(
                "A display name may not be an email address: other players would read it as "
                "one (choose a name without its @)."
            ),
            code="address",
        )
    if _nameless_shape(name):
        raise ValidationError(
            _("%(name)s is how Lords calls an account without a name: choose another display name.")
            % {"name": name},
            code="reserved",
        )
    if len(name) > MAX_NAME_LENGTH:
        raise ValidationError(
            _("A display name has at most %(max)s characters; this one has %(length)s.")
            % {"max": MAX_NAME_LENGTH, "length": len(name)},
            code="too_long",
        )
    # (compared as the database's constraint compares them, ``lower()``: ``iexact`` is
    # ``UPPER()``, which a few letters, the Kelvin sign, tell apart from it; found by review)
    others = (
        get_user_model()
        .objects.annotate(folded=Lower("display_name"))
        .filter(folded=Lower(Value(name)))
    )
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        raise name_taken(name)
    return name


def _nameless_shape(name: str) -> bool:
    """Whether ``name`` reads as an account without one ("Player 12", in any of the site's
    languages: :func:`accounts.models.unnamed`): chosen by someone, it would take that
    account's place in every list and its invitations by name (found by review)."""
    words = {w.casefold() for w in _nameless_words()}
    first, _space, number = name.rpartition(" ")
    return number.isdigit() and first.strip().casefold() in words


@cache
def _nameless_words() -> tuple[str, ...]:
    words = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.append(unnamed(0).rpartition(" ")[0])
    return tuple(words)


def name_taken(name: str) -> ValidationError:
    """The refusal of a name another person has."""
    return ValidationError(
        _("%(name)s is taken: choose another display name.") % {"name": name}, code="taken"
    )


def lost_the_name(exc: IntegrityError) -> bool:
    """Whether a save failed because another account took the name between its check and
    the save (two people choosing the same name at the same moment: the constraint holds,
    and the door answers as :func:`check_display_name` would have, not with a 500)."""
    return NAME_CONSTRAINT in str(exc)


def time_zones() -> set[str]:
    """Every IANA zone name the server knows (and UTC)."""
    global _ZONES
    if _ZONES is None:
        _ZONES = available_timezones() | {"UTC"}
    return _ZONES


_ZONES: set[str] | None = None
