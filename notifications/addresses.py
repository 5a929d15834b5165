"""Signed addresses: the reply address of a (game, seat), and the unsubscribe token.

A reply address looks like ``play+g12s34k<20 hex digits>@<domain>``: the game id, the seat
id and a truncated HMAC of both under the site's secret. It uses lowercase letters and
digits only, so it survives mail systems that lower-case (or upper-case) local parts, and
its separators (g, s, k) are not hex digits, so it parses without ambiguity.
"""

from __future__ import annotations

import re
from email.utils import parseaddr

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

REPLY_SALT = "notifications.reply-address"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
MAC_LENGTH = 20  # hex digits: 80 bits
_ID = r"(0|[1-9][0-9]{0,17})"  # no leading zeros: one spelling per id
_REPLY = re.compile(rf"play\+g{_ID}s{_ID}k([0-9a-f]{{{MAC_LENGTH}}})")


def _mac(game_id: int, seat_id: int, secret: str | None = None) -> str:
    value = f"{game_id}:{seat_id}"
    return salted_hmac(REPLY_SALT, value, secret=secret, algorithm="sha256").hexdigest()[
        :MAC_LENGTH
    ]


def reply_address(game_id: int, seat_id: int, *, secret: str | None = None) -> str:
    """The address a player replies to with commands for their seat in that game."""
    token = f"g{game_id}s{seat_id}k{_mac(game_id, seat_id, secret)}"
    return f"play+{token}@{settings.NOTIFICATIONS_REPLY_DOMAIN}"


def parse_reply_address(address: str, *, secret: str | None = None) -> tuple[int, int] | None:
    """``(game_id, seat_id)`` of a reply address we signed (any case, with or without a
    display name), else None: a tampered token, another secret, another domain."""
    addr = parseaddr(address)[1].strip().lower()
    local, at, domain = addr.rpartition("@")
    if not at or domain != settings.NOTIFICATIONS_REPLY_DOMAIN.lower():
        return None
    match = _REPLY.fullmatch(local)
    if match is None:
        return None
    game_id, seat_id = int(match[1]), int(match[2])
    if not constant_time_compare(match[3], _mac(game_id, seat_id, secret)):
        return None
    return game_id, seat_id


def unsubscribe_token(user_id: int) -> str:
    """A token for the unsubscribe link of ``user_id`` (it does not expire: an old email's
    link must still work)."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(user_id))


def user_id_for_unsubscribe_token(token: str) -> int | None:
    try:
        value = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isdigit() else None
