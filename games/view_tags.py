"""The game view's ETag: a tag that changes whenever the view a player reads could change,
so that a client polling with ``If-None-Match`` gets a ``304 Not Modified`` for about the
cost of a request that does nothing (issue #15: one statement, no engine, no state).

The view (``selectors.game_view``) is a function of the game row, its seats, their players'
names and returns from vacation, the reader, their language and the time only through a
vacation that has ended. The tag hashes exactly that: every column of the game but its
state and seed (the state changes only with the version, which is in the tag; the seed is
secret), every column of its seats, each player's ``display_name``, ``email`` (a name's
fallback) and ``away_until`` while it is in the future, the reader and the active language.
It starts with the version, so it also serves as ``If-Match`` (``"12.…"`` reads as 12).

The hash is keyed with the server's secret (BLAKE2b): the tag holds each player's address,
and a player who could rebuild every other column a tag hashes could test guesses of a
co-player's address against it offline (found by a security review); without the key a
tag tells nothing of what it hashes.

The same tag is made from instances already in memory (the answer to a move: no query) and
from one unlocked statement (``rows.table_values``: a conditional read); a test holds them
equal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from operator import attrgetter
from typing import Any

import orjson
from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language

from games.models import Game, Seat
from games.services import rows

GAME_FIELDS = tuple(
    f.attname for f in Game._meta.concrete_fields if f.name not in ("state", "seed")
)
SEAT_FIELDS = ("id", *(f.attname for f in Seat._meta.concrete_fields if f.attname != "id"))
USER_FIELDS = ("display_name", "email", "away_until")
_AWAY = USER_FIELDS.index("away_until")
_VERSION = GAME_FIELDS.index("version")

SeatValues = tuple[Sequence[Any], Sequence[Any] | None]


_game_values = attrgetter(*GAME_FIELDS)
_seat_values = attrgetter(*SEAT_FIELDS)
_user_values = attrgetter(*USER_FIELDS)


def view_tag(game: Game, seats: Sequence[Seat], user: Any) -> str:
    """The tag of the view ``user`` has of ``game`` (with all its ``seats`` and their
    users, as read or written by the caller). (Tuples, made in C: JSON arrays all the
    same.)"""
    shown = []
    for s in seats:
        person = s.user
        shown.append((_seat_values(s), None if person is None else _user_values(person)))
    return _tag(_game_values(game), shown, user)


def current_tag(game_id: int, user: Any) -> str | None:
    """The tag of the game's view for ``user`` now, from one statement; None if there is no
    such game or if the caller is neither seated nor looking at a public game (the full
    read then answers, or refuses, as it always did)."""
    found = rows.table_values(game_id, GAME_FIELDS, SEAT_FIELDS, USER_FIELDS)
    if found is None:
        return None
    game_values, seats = found
    user_pk = getattr(user, "pk", None)
    seated = any(values[SEAT_FIELDS.index("user_id")] == user_pk for values, _ in seats)
    if not seated and game_values[GAME_FIELDS.index("private")]:
        return None
    return _tag(game_values, seats, user)


def replayed_tag(game_id: int, version: int, user: Any) -> str:
    """The tag for a replayed submission's answer, whose body is the first answer's (the
    position right after that submission, at ``version``): the view's tag now while the
    game is still at that version, the tag the first answer carried (unless a name, say,
    changed since, which the tag then follows). Once the game has moved on, the tag of that
    view cannot be made again (the rows have changed); the bare version (``"12"``) stands
    for it: as ``If-Match`` it is that version (a command sent with it is refused as
    stale), and as ``If-None-Match`` it matches no view, so the next poll shows the moves
    since, where the tag of the view now would answer 304 and hide them."""
    tag = current_tag(game_id, user)
    if tag is not None and version_of(tag) == str(version):
        return tag
    return f'"{version}"'


def version_of(tag: str) -> str:
    """The version a tag starts with (``"12.ab…"`` → ``12``; an old-style ``"12"`` → 12)."""
    return tag.strip().removeprefix("W/").strip('"').split(".", 1)[0]


def matches(header: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (one of a list, weak or strong, or
    ``*``)."""
    if not header:
        return False
    wanted = tag.strip('"')
    for part in header.split(","):
        part = part.strip()
        if part == "*" or part.removeprefix("W/").strip('"') == wanted:
            return True
    return False


_TAG_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
"""(Datetimes written by orjson itself: every one the tag holds is in UTC, read so from the
database or made so by the clocks, and orjson writes those as ``_plain`` does,
``2026-11-24T13:33:44.759844+00:00``; the move's tag and the read's are held equal by a
test.)"""


def _tag(game_values: Sequence[Any], seats: Sequence[SeatValues], user: Any) -> str:
    now = timezone.now()
    shown = []
    for seat_values, user_values in seats:
        person = None
        if user_values is not None:
            person = list(user_values)
            away = person[_AWAY]
            person[_AWAY] = away if away is not None and away > now else None
        shown.append((seat_values, person))
    parts = [get_language(), getattr(user, "pk", None), game_values, shown]
    try:  # (orjson: a move's answer pays for this tag; durations go through _plain)
        text = orjson.dumps(parts, default=_plain, option=_TAG_OPTIONS)
    except orjson.JSONEncodeError:  # (what it refuses: an integer beyond 64 bits)
        text = json.dumps(parts, sort_keys=True, default=_plain).encode()
    version = game_values[_VERSION]
    digest = hashlib.blake2b(text, key=_key(settings.SECRET_KEY), digest_size=10).hexdigest()
    return f'"{version}.{digest}"'


@lru_cache(maxsize=2)
def _key(secret: str) -> bytes:
    """The tags' key, derived from the server's secret (BLAKE2b takes at most 64 bytes)."""
    return hashlib.sha256(f"lords.view_tags:{secret}".encode()).digest()


def _plain(value: Any) -> Any:
    """The same text for a value read from the database and the one written from memory."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    return str(value)
