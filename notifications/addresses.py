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


OFFER_SALT = "notifications.offer-address"
_OFFER = re.compile(rf"play\+g{_ID}s{_ID}o{_ID}k([0-9a-f]{{{MAC_LENGTH}}})")


def _offer_mac(game_id: int, seat_id: int, offer_id: int, secret: str | None = None) -> str:
    value = f"{game_id}:{seat_id}:{offer_id}"
    mac = salted_hmac(OFFER_SALT, value, secret=secret, algorithm="sha256")
    return mac.hexdigest()[:MAC_LENGTH]


def offer_address(game_id: int, seat_id: int, offer_id: int, *, secret: str | None = None) -> str:
    """The address a party replies to with ``accept``, ``decline`` or a counter-offer to one
    trade offer (issue 11): ``play+g<game>s<seat>o<offer>k<mac>@<domain>``, signed with its
    own salt (no seat address is one; ``o`` is not a hex digit)."""
    mac = _offer_mac(game_id, seat_id, offer_id, secret)
    token = f"g{game_id}s{seat_id}o{offer_id}k{mac}"
    return f"play+{token}@{settings.NOTIFICATIONS_REPLY_DOMAIN}"


def parse_offer_address(address: str, *, secret: str | None = None) -> tuple[int, int, int] | None:
    """``(game_id, seat_id, offer_id)`` of an offer address we signed, else None."""
    addr = parseaddr(address)[1].strip().lower()
    local, at, domain = addr.rpartition("@")
    if not at or domain != settings.NOTIFICATIONS_REPLY_DOMAIN.lower():
        return None
    match = _OFFER.fullmatch(local)
    if match is None:
        return None
    game_id, seat_id, offer_id = int(match[1]), int(match[2]), int(match[3])
    if not constant_time_compare(match[4], _offer_mac(game_id, seat_id, offer_id, secret)):
        return None
    return game_id, seat_id, offer_id


DIGEST_SALT = "notifications.digest-address"
_DIGEST = re.compile(rf"play\+u{_ID}k([0-9a-f]{{{MAC_LENGTH}}})")


def _digest_mac(user_id: int, secret: str | None = None) -> str:
    mac = salted_hmac(DIGEST_SALT, str(user_id), secret=secret, algorithm="sha256")
    return mac.hexdigest()[:MAC_LENGTH]


def digest_address(user_id: int, *, secret: str | None = None) -> str:
    """The address a player replies to with commands for several games (the daily digest):
    ``play+u<user>k<mac>@<domain>``, signed per user (its own salt: no seat address is one),
    ``u`` is not a hex digit and differs from the seat address's ``g``."""
    return f"play+u{user_id}k{_digest_mac(user_id, secret)}@{settings.NOTIFICATIONS_REPLY_DOMAIN}"


def parse_digest_address(address: str, *, secret: str | None = None) -> int | None:
    """The user id of a digest reply address we signed, else None."""
    addr = parseaddr(address)[1].strip().lower()
    local, at, domain = addr.rpartition("@")
    if not at or domain != settings.NOTIFICATIONS_REPLY_DOMAIN.lower():
        return None
    match = _DIGEST.fullmatch(local)
    if match is None:
        return None
    user_id = int(match[1])
    if not constant_time_compare(match[2], _digest_mac(user_id, secret)):
        return None
    return user_id


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
