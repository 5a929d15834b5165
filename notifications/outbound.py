"""Signed outbound webhooks: each player's events (:class:`games.models.PlayerEvent`, the
rows the event stream reads) POSTed to the player's URLs.

- **Signatures** per Standard Webhooks (https://www.standardwebhooks.com): headers
  ``webhook-id`` (the event's id: a receiver drops a repeat), ``webhook-timestamp`` (Unix
  seconds) and ``webhook-signature`` ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``,
  keyed with the secret's bytes (``whsec_<base64>``).
- **Payloads Discord and Slack take as they are**: ``content`` (Discord) and ``text``
  (Slack) carry one sentence; ``type``, ``timestamp`` and ``data`` carry the event.
- **The events are the queue**: ``Webhook.last_event`` is how far a hook got, so a worker
  that dies loses nothing (the next run starts there; a repeat has the same ``webhook-id``).
  A run claims a hook with a conditional UPDATE of ``retry_at`` (a lease), as the emails do.
- **Retries with backoff**: a failed POST (an error, a timeout, not 2xx) waits 30 s, 2 min,
  10 min, 1 h...; after ``MAX_FAILURES`` in a row the hook is switched off and the player is
  told by email. Why it failed (``last_error``) is written in the player's language.
- **Bounded in time**: a POST has ``TIMEOUT_SECONDS`` for the lookup, then ``POST_SECONDS``
  in all for the connection and the answer (a receiver that trickles its answer byte by
  byte is cut off), and a run stops taking events once what is left of its lease could not
  hold another POST: the lease cannot lapse while a run still posts, so two runs never
  deliver the same hook at once.
See docs/decisions/0018-clocks-and-channels.md.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import socket
import ssl
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LookupTimeout
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import idna
from django.conf import settings
from django.core.mail import send_mail
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.models import PlayerEvent, Webhook

if TYPE_CHECKING:
    from games.services.hooks import Batch

log = logging.getLogger(__name__)
S = TypeVar("S", bound=socket.socket)

MAX_FAILURES = 5
BACKOFF = (30, 120, 600, 3600, 6 * 3600)
"""Seconds to wait after the 1st, 2nd... failure in a row."""
LEASE = timedelta(minutes=2)
TIMEOUT_SECONDS = 5.0
"""For each step of a POST: the lookup, the connection, each read and write."""
POST_SECONDS = 15.0
"""For a whole POST after the lookup (connection, request, answer), whatever each step
takes."""
BATCH = 50


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header of a message (Standard Webhooks, version 1)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def payload(event: PlayerEvent) -> dict[str, Any]:
    """What is POSTed: the event, and a sentence in ``content`` and ``text`` for chats.
    ``data`` is the event as the stream sends it, its ``kind`` too, so that one handler
    reads both (it lacked ``kind``: decision 0039)."""
    sentence = describe(event)
    return {
        "type": event.kind,
        "timestamp": event.created_at.isoformat(),
        "data": {"id": event.pk, "kind": event.kind, **event.data},
        "content": sentence,
        "text": sentence,
    }


def describe(event: PlayerEvent) -> str:
    """One sentence, in the player's language (set by the caller)."""
    data, url = event.data, f"{settings.SITE_URL}/games/{event.data.get('game')}/"
    if event.kind == "your_turn":
        return _("It is your turn in game #%(game)s: %(url)s") % {"game": data["game"], "url": url}
    if event.kind == "offer":
        return _("Game #%(game)s, trade offer #%(offer)s %(event)s: %(text)s") % {
            "game": data["game"],
            "offer": data["offer"],
            "event": data["event"],
            "text": data.get("text") or "—",
        }
    if event.kind == "message":
        return _("Game #%(game)s, seat %(seat)s says: %(text)s") % {
            "game": data["game"],
            "seat": data["seat"],
            "text": data["text"],
        }
    return _("Game #%(game)s, move %(seq)s: %(text)s") % {
        "game": data.get("game"),
        "seq": data.get("seq"),
        "text": data.get("text") or "—",
    }


def deliver_due(now: datetime | None = None) -> int:
    """Deliver to every active hook that has new events (``pending``: set when events are
    written) or whose retry or lapsed lease is due, and is not waiting out a backoff (or
    claimed by another run); how many events were delivered. It reads only those hooks
    (the partial index ``webhook_due``), not every hook of the site (issue 15)."""
    now = now or timezone.now()
    due = (
        Webhook.objects.filter(active=True)
        .filter(Q(pending=True, retry_at__isnull=True) | Q(retry_at__lte=now))
        .values_list("pk", flat=True)
    )
    return sum(deliver(hook_id=pk, now=now) for pk in due)


def _claim(hook_id: int, now: datetime) -> Webhook | None:
    """Take the hook for this run (a lease in ``retry_at``); None: not ours to take. The
    news flag is cleared in the same UPDATE: events written from now on set it again (their
    writer's UPDATE of the hook waits for this one), so none is left behind."""
    taken = (
        Webhook.objects.filter(pk=hook_id, active=True)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .update(retry_at=now + LEASE, pending=False)
    )
    return Webhook.objects.select_related("user").get(pk=hook_id) if taken else None


def deliver(*, hook_id: int, now: datetime | None = None) -> int:
    """The hook's undelivered events, in order, until one fails (then the backoff); none
    for an inactive account, whose hook is switched off instead."""
    now = now or timezone.now()
    hook = _claim(hook_id, now)
    if hook is None:
        return 0
    if not hook.user.is_active:
        _stop(hook)
        return 0
    events = list(
        PlayerEvent.objects.filter(user=hook.user, id__gt=hook.last_event).order_by("id")[:BATCH]
    )
    delivered = 0
    # The last POST must end before the lease does (a margin for the writes after it). The
    # lease was written from ``now``, which a long run of ``deliver_due`` gives every hook:
    # what is left of it is counted from the clock.
    left = (now + LEASE - timezone.now()).total_seconds()
    lease_ends = time.monotonic() + left - (TIMEOUT_SECONDS + POST_SECONDS + 10)
    with translation.override(hook.user.language or settings.LANGUAGE_CODE):
        for event in events:
            if time.monotonic() > lease_ends:
                break
            error = post(hook, event)
            if error:
                _failed(hook, error, now)
                return delivered
            hook.last_event, hook.failures, delivered = event.pk, 0, delivered + 1
            Webhook.objects.filter(pk=hook.pk).update(last_event=event.pk, failures=0)
    more = delivered == BATCH or delivered < len(events)  # (the rest at the next run)
    done = {"retry_at": None, "last_error": ""} | ({"pending": True} if more else {})
    Webhook.objects.filter(pk=hook.pk).update(**done)
    return delivered


def _stop(hook: Webhook) -> None:
    """Switch off, unsent, the hook of an account no longer in use (deleted, or deactivated
    by staff): its events are not the receiver's any more (found by QA). Why, in the
    player's language, as for any switched-off hook; no email (nothing is sent to them)."""
    with translation.override(hook.user.language or settings.LANGUAGE_CODE):
        reason = _("the account is deleted or deactivated")
    Webhook.objects.filter(pk=hook.pk).update(
        active=False, pending=False, retry_at=None, last_error=reason
    )


def _resolved(url: str) -> tuple[list[str], str]:
    """The addresses to POST ``url`` to, or why Lords will not (in the active language):
    only http(s), and not to a loopback, private or link-local address (the server's own
    neighbours) unless ``WEBHOOKS_ALLOW_PRIVATE`` (tests, a private deployment). A POST
    connects to one of these very addresses: a second lookup at connection time could
    answer otherwise (DNS rebinding: a name that resolved to a public address for the
    check, then to the server's own network for the request)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return [], _("not an http(s) address")
    addresses, why = _looked_up(parts)
    why = why or _private(parts.hostname, addresses)
    if why:
        return [], why
    return addresses[:MAX_ADDRESSES], ""


def refusal(url: str) -> str:
    """Why a webhook to ``url`` is refused at its creation, or "": the check of each
    delivery, so that a hook that could never be delivered is not made (a play-tester's
    receiver on 127.0.0.1 was accepted, then every POST failed: decision 0039). A name that
    does not resolve now is let through: its receiver may not be up yet, and each delivery
    checks again and says why it failed. Only the network is judged here: the view refuses
    an address that is not http(s) in its own words."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    addresses, why = _looked_up(parts)
    return "" if why else _private(parts.hostname, addresses)


def _looked_up(parts: urllib.parse.SplitResult) -> tuple[list[str], str]:
    """The host's addresses, or why it could not be looked up (in the active language)."""
    host = parts.hostname
    try:
        looking_up = _LOOKUPS.submit(
            socket.getaddrinfo, _ascii_host(parts), _port(parts), proto=socket.IPPROTO_TCP
        )
        infos = looking_up.result(timeout=TIMEOUT_SECONDS)
    except LookupTimeout:
        looking_up.cancel()  # (if it has not started: the pool is busy with hung lookups)
        return [], _("cannot resolve %(host)s: no answer within %(seconds)s s") % {
            "host": host,
            "seconds": f"{TIMEOUT_SECONDS:g}",
        }
    except (OSError, ValueError) as exc:
        return [], _("cannot resolve %(host)s: %(error)s") % {"host": host, "error": exc}
    return list(dict.fromkeys(str(info[4][0]) for info in infos)), ""


def _private(host: str | None, addresses: list[str]) -> str:
    """Why ``addresses`` may not be sent to (one is not public), unless the deployment
    allows private addresses (``WEBHOOKS_ALLOW_PRIVATE``)."""
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        return ""
    for address in addresses:
        if not public(address):
            return _("%(host)s is a private address") % {"host": host}
    return ""


LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
"""NAT64 prefixes for local use (RFC 8215): a network's own translation, never public."""

CARRYING_IPV4 = (
    ipaddress.IPv6Network("64:ff9b::/96"),  # the well-known NAT64 prefix (RFC 6052)
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (deprecated; some stacks route it)
    ipaddress.IPv6Network("::ffff:0:0:0/96"),  # IPv4-translated (SIIT, RFC 2765)
)
"""Prefixes whose last 32 bits are an IPv4 address, reached through a translator (IPv4-
mapped and 6to4 addresses have ``ipaddress``'s own accessors). A NAT64 prefix a network
sets up for itself cannot be told from a public address: there, the guard is the
server's egress firewall."""


def public(address: str) -> bool:
    """Whether a webhook may be sent to ``address``: a global unicast address, and, for an
    IPv6 address that carries an IPv4 one (NAT64, 6to4, IPv4-mapped, -compatible or
    -translated), a global IPv4 address in it (Teredo's are not global to begin with).
    Python 3.11.7's ``is_global`` counts ``64:ff9b::7f00:1`` (the server's own 127.0.0.1
    through a NAT64 translator) and ``2002:7f00:1::`` (6to4) as global (builds with the
    fix of CVE-2024-4032 refuse all of 6to4): a translator or relay on the way would
    deliver them to the server's own network."""
    ip = ipaddress.ip_address(address)
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        return True
    if ip.is_site_local or ip in LOCAL_NAT64:
        return False
    inside = ip.ipv4_mapped or ip.sixtofour
    if inside is None and any(ip in net for net in CARRYING_IPV4):
        inside = ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return inside is None or public(str(inside))


_LOOKUPS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="webhook-dns")
"""The system's resolver has no timeout of its own that Lords sets: a lookup runs here and
the POST waits ``TIMEOUT_SECONDS`` for it (a lookup that hangs ends in its thread later)."""


MAX_ADDRESSES = 3
"""Addresses of one name tried in turn, each with its own timeout: a name with many that
never answer must not hold the run (and its lease) for minutes."""


def _ascii_host(parts: urllib.parse.SplitResult) -> str:
    """The URL's host as it goes in DNS, the Host header and TLS: an IP address as it is, a
    name in another script as browsers write it (IDNA 2008 with UTS #46; Python's own
    "idna" codec is IDNA 2003, which sends ``faß.de`` to ``fass.de``, another domain);
    ValueError if it cannot be."""
    assert parts.hostname is not None
    try:
        return str(ipaddress.ip_address(parts.hostname))
    except ValueError:
        return str(idna.encode(parts.hostname, uts46=True).decode("ascii"))


def _port(parts: urllib.parse.SplitResult) -> int:
    """The URL's port, or its scheme's (ValueError for a port out of range)."""
    return parts.port or (443 if parts.scheme == "https" else 80)


TLS = ssl.create_default_context()
"""Certificates and host names checked as browsers do (loaded once: each load costs tens of
milliseconds)."""


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection to the addresses that were checked (each in turn, as
    ``socket.create_connection`` tries a name's), with the URL's host in the ``Host``
    header, that :meth:`cut_off` ends at any step (connecting, the TLS handshake, sending,
    reading): each step's own timeout restarts with every byte a receiver trickles."""

    def __init__(self, host: str, port: int, addresses: list[str], **tls: Any) -> None:
        super().__init__(host, port, timeout=TIMEOUT_SECONDS, **tls)
        self.addresses = addresses
        self.ends = time.monotonic() + POST_SECONDS
        self.opened: list[socket.socket] = []
        self.over = threading.Event()

    def connect(self) -> None:
        self.sock = self._opened(_connected(self.addresses, self.port, self.ends))

    def _opened(self, sock: S) -> S:
        """``sock``, from now on shut down by :meth:`cut_off` (or at once if it came)."""
        self.opened.append(sock)
        if self.over.is_set():
            raise TimeoutError("cut off")
        return sock

    def cut_off(self) -> None:
        """Out of time: shutting the sockets down wakes the step the POST is blocked in."""
        self.over.set()
        for sock in list(self.opened):
            with contextlib.suppress(OSError):  # (closed, or handed over to TLS)
                sock.shutdown(socket.SHUT_RDWR)


class _PinnedTLS(_Pinned, http.client.HTTPSConnection):
    """The same over TLS: the certificate is checked against the URL's host name (SNI)."""

    def __init__(self, host: str, port: int, addresses: list[str]) -> None:
        super().__init__(host, port, addresses, context=TLS)

    def connect(self) -> None:
        sock = self._opened(_connected(self.addresses, self.port, self.ends))
        try:
            tls = TLS.wrap_socket(sock, server_hostname=self.host, do_handshake_on_connect=False)
        except BaseException:
            sock.close()
            raise
        try:
            self._opened(tls).do_handshake()
        except BaseException:
            tls.close()  # (not ours yet: ``close()`` would not see it)
            raise
        self.sock = tls


def _connected(addresses: list[str], port: int, ends: float) -> socket.socket:
    """A connection to the first of ``addresses`` that answers (the last error if none),
    each tried for ``TIMEOUT_SECONDS`` at most and all before ``ends`` (``time.monotonic``)."""
    error: OSError = OSError("no address")
    for address in addresses:
        left = ends - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        try:
            return socket.create_connection((address, port), min(TIMEOUT_SECONDS, left))
        except OSError as exc:
            error = exc
    raise error


def post(hook: Webhook, event: PlayerEvent) -> str:
    """POST one event; "" when the receiver took it (2xx), else what went wrong, in the
    active language (the operating system's own words for a network error stay as it gives
    them). To the addresses checked by :func:`_resolved`, without following redirects (a
    redirect could point at the server's own network: a 3xx is a failure, as for Standard
    Webhooks senders), and within ``POST_SECONDS`` in all."""
    addresses, refused = _resolved(hook.url)
    if not addresses:
        return refused
    body = json.dumps(payload(event), separators=(",", ":")).encode()
    msg_id, timestamp = f"evt_{event.pk}", int(time.time())
    parts = urllib.parse.urlsplit(hook.url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Lords-Webhooks/1",
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(hook.secret, msg_id, timestamp, body),
    }
    kind = _PinnedTLS if parts.scheme == "https" else _Pinned
    connection = None
    watchdog = None
    try:  # (a host, port or path the URL field let through may still be refused here)
        connection = kind(_ascii_host(parts), _port(parts), addresses)
        watchdog = threading.Timer(POST_SECONDS, connection.cut_off)
        watchdog.start()
        connection.request("POST", urllib.parse.quote(target, safe=URL_SAFE), body, headers)
        status = connection.getresponse().status
    except (OSError, ValueError, http.client.HTTPException) as exc:
        if connection is not None and connection.over.is_set():
            return _("no answer within %(seconds)s s") % {"seconds": f"{POST_SECONDS:g}"}
        error = str(exc) or exc.__class__.__name__
        return _("the POST failed: %(error)s") % {"error": error}
    finally:
        if watchdog is not None:
            watchdog.cancel()
        if connection is not None:
            connection.close()
    if 300 <= status < 400:
        return _("the receiver answered HTTP %(status)s (redirects are not followed)") % {
            "status": status
        }
    if 200 <= status < 300:
        return ""
    return _("the receiver answered HTTP %(status)s") % {"status": status}


URL_SAFE = "/?#[]@!$&'()*+,;=:%~"
"""What a request target keeps as it is; anything else (a space, a letter outside ASCII) is
percent-encoded, as a browser sends it."""


def _failed(hook: Webhook, error: str, now: datetime) -> None:
    """One more failure in a row: wait the backoff, or switch the hook off and tell."""
    error = error[: Webhook._meta.get_field("last_error").max_length]
    failures = hook.failures + 1
    if failures >= MAX_FAILURES:
        Webhook.objects.filter(pk=hook.pk).update(
            active=False, failures=failures, retry_at=None, last_error=error
        )
        _tell_switched_off(hook, error)
        return
    wait = timedelta(seconds=BACKOFF[min(failures, len(BACKOFF)) - 1])
    Webhook.objects.filter(pk=hook.pk).update(
        failures=failures, retry_at=now + wait, last_error=error
    )


def _tell_switched_off(hook: Webhook, error: str) -> None:
    """The player's email: which hook, why, how to turn it on again."""
    user = hook.user
    with translation.override(user.language or settings.LANGUAGE_CODE):
        subject = _("[Lords] Your webhook is switched off")
        body = _(
            "Your webhook %(url)s failed %(count)s times in a row (last: %(error)s), so Lords "
            "stopped sending to it. Fix the receiver, then delete the webhook and add it again "
            "(POST /api/v1/webhooks/); the events since are kept for your event stream."
        ) % {"url": hook.url, "count": MAX_FAILURES, "error": error}
    send_mail(subject, body, None, [user.email])
    log.warning("webhook #%s of user #%s switched off: %s", hook.pk, user.pk, error)


def kick(sender: Any = None, *, game_id: int, batch: Batch | None = None, **kwargs: Any) -> None:
    """The receiver of ``moves_committed`` (after the games' own receiver wrote the events):
    deliver now rather than at the next beat, if a player of the game has a webhook (asked
    once for all the games of the drain's ``batch``)."""
    if batch is not None:
        hooked = game_id in batch.kept("notifications.webhooks", lambda: _hooked(list(batch.games)))
    else:
        hooked = bool(_hooked([game_id]))
    if hooked:
        from notifications.tasks import deliver_webhooks

        deliver_webhooks.delay()


def _hooked(game_ids: list[int]) -> set[int]:
    """Those of the games with a player who has an active webhook."""
    return set(
        Webhook.objects.filter(active=True, user__seats__game_id__in=game_ids).values_list(
            "user__seats__game_id", flat=True
        )
    )
