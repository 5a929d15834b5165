"""Outbound webhooks against a local HTTP receiver: Standard Webhooks signatures that a
receiver can check, payloads with Discord's ``content`` and Slack's ``text``, retries with
backoff (time is data: each run is given its ``now``), switch-off after repeated failures
with the player told by email."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import ipaddress
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from games import services
from games.api.stream import frame
from games.events import record_moves, record_table, write
from games.models import CalendarFeed, Game, PlayerEvent, Webhook
from games.services import talk
from games.web.calendar import new_feed
from notifications import outbound
from notifications.outbound import BATCH, MAX_FAILURES, deliver_due, sign
from tests.api.helpers import body, make_player
from tests.platform.helpers import legal_text, seat_to_act

pytestmark = pytest.mark.django_db


class Receiver:
    """A local webhook receiver: answers ``fail`` requests with 500, then 204 (or a 302 to
    ``redirect_to``, when set)."""

    def __init__(self) -> None:
        self.fail = 0
        self.delay = 0.0
        self.redirect_to = ""
        self.paths: list[str] = []
        self.received: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.paths.append(self.path)
                receiver.received.append(({k.lower(): v for k, v in self.headers.items()}, data))
                failing = receiver.fail > 0
                receiver.fail -= 1
                time.sleep(receiver.delay)
                if receiver.redirect_to:
                    self.send_response(302)
                    self.send_header("Location", receiver.redirect_to)
                else:
                    self.send_response(500 if failing else 204)
                self.end_headers()

            def do_GET(self) -> None:  # (a POST redirected by a 302 comes as a GET)
                receiver.received.append(({k.lower(): v for k, v in self.headers.items()}, b""))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # (the receiver is on this machine)
    found = Receiver()
    yield found
    found.server.shutdown()


def verify(secret: str, headers: dict[str, str], data: bytes) -> bool:
    """What a receiver does (Standard Webhooks): recompute the HMAC over id.timestamp.body."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + data
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = [s.split(",", 1)[1] for s in headers["webhook-signature"].split()]
    return any(hmac.compare_digest(expected, s) for s in given)


def test_the_signature_matches_the_standard_webhooks_example():
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body_ = b'{"test": 2432232314}'
    expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    assert sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body_) == expected


def _hook_and_events(make_game: Any, receiver: Receiver) -> tuple[Any, Webhook]:
    alice, bob = make_player("alice"), make_player("bob")
    made = alice.client.post("/api/v1/webhooks/", {"url": receiver.url}, format="json")
    assert made.status_code == 201, made.content
    assert body(made)["secret"].startswith("whsec_")
    game = make_game(alice.user, bob.user)
    for _ in range(2):
        seat = seat_to_act(game)
        services.submit_command(game=game, user=seat.user, text=legal_text(game))
    record_moves(game_id=game.pk, seqs=[1, 2])  # what the outbox's receiver writes
    return alice, Webhook.objects.get(pk=body(made)["id"])


def test_it_retries_with_backoff_then_delivers_every_event_signed(make_game, receiver):
    alice, hook = _hook_and_events(make_game, receiver)
    events = list(PlayerEvent.objects.filter(user=alice.user).order_by("id"))
    assert events
    receiver.fail = 2
    now = timezone.now()

    assert deliver_due(now=now) == 0  # 500: the first attempt fails
    hook.refresh_from_db()
    assert (hook.failures, hook.retry_at, hook.last_error) == (
        1,
        now + timedelta(seconds=30),
        "the receiver answered HTTP 500",
    )
    assert deliver_due(now=now + timedelta(seconds=10)) == 0  # waiting out the backoff
    assert len(receiver.received) == 1
    assert deliver_due(now=now + timedelta(seconds=31)) == 0  # fails again: 2 minutes now
    hook.refresh_from_db()
    assert hook.retry_at == now + timedelta(seconds=31 + 120)
    assert deliver_due(now=now + timedelta(seconds=200)) == len(events)

    delivered = receiver.received[2:]
    assert [h["webhook-id"] for h, _ in delivered] == [f"evt_{e.pk}" for e in events]
    assert receiver.received[0][0]["webhook-id"] == f"evt_{events[0].pk}"  # the retried one
    for headers, data in delivered:
        assert verify(hook.secret, headers, data)
        assert not verify("whsec_" + base64.b64encode(b"x" * 24).decode(), headers, data)
        sent = json.loads(data)
        assert sent["content"] == sent["text"] and sent["text"]  # Discord and Slack
        assert sent["type"] in {"move", "your_turn"} and sent["data"]["game"] > 0
    hook.refresh_from_db()
    assert (hook.failures, hook.retry_at, hook.last_event) == (0, None, events[-1].pk)
    assert deliver_due(now=now + timedelta(seconds=300)) == 0  # nothing new: nothing sent


def test_the_data_is_the_event_as_on_the_stream(make_game, receiver):
    """api.md says so, and a handler shared by the stream and the webhooks relies on it:
    the webhook's ``data`` lacked the stream's ``kind``."""
    alice, _hook = _hook_and_events(make_game, receiver)
    events = list(PlayerEvent.objects.filter(user=alice.user).order_by("id"))
    assert deliver_due() == len(events)
    for event, (_headers, data) in zip(events, receiver.received, strict=True):
        on_the_stream = json.loads(frame(event).split("data: ", 1)[1])
        assert json.loads(data)["data"] == on_the_stream
        assert on_the_stream["kind"] == event.kind


def test_repeated_failures_switch_it_off_and_tell_the_player(make_game, receiver):
    alice, hook = _hook_and_events(make_game, receiver)
    receiver.fail = 1000
    now = timezone.now()
    for _ in range(MAX_FAILURES):
        now += timedelta(days=1)  # past any backoff
        deliver_due(now=now)
    hook.refresh_from_db()
    assert not hook.active and hook.failures == MAX_FAILURES
    assert len(receiver.received) == MAX_FAILURES
    [told] = mail.outbox
    assert told.to == [alice.user.email] and "switched off" in told.subject
    assert receiver.url in told.body and "HTTP 500" in told.body
    deliver_due(now=now + timedelta(days=1))
    assert len(receiver.received) == MAX_FAILURES  # off: nothing more is sent
    listed = body(alice.client.get("/api/v1/webhooks/"))
    assert listed[0]["active"] is False


def test_private_addresses_are_refused_unless_allowed(make_game, receiver, settings):
    _alice, hook = _hook_and_events(make_game, receiver)
    settings.WEBHOOKS_ALLOW_PRIVATE = False  # (since the hook was made: each POST checks)
    deliver_due()
    hook.refresh_from_db()
    assert receiver.received == [] and "private address" in hook.last_error


@pytest.mark.parametrize(
    "host",
    [
        "[64:ff9b::7f00:1]",  # 127.0.0.1 through the well-known NAT64 prefix
        "[64:ff9b:1::a00:1]",  # a network's own NAT64 prefix
        "[2002:7f00:1::1]",  # 6to4 around 127.0.0.1
        "[::127.0.0.1]",  # IPv4-compatible
    ],
)
def test_an_ipv6_address_around_a_private_ipv4_one_is_refused(make_game, receiver, settings, host):
    """Python counts these as global; a translator or relay on the way would deliver them to
    the server's own network."""
    _alice, hook = _hook_and_events(make_game, receiver)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    Webhook.objects.filter(pk=hook.pk).update(url=f"http://{host}:8080/hook")
    deliver_due()
    hook.refresh_from_db()
    assert receiver.received == [] and hook.last_error == f"{host[1:-1]} is a private address"


@given(st.ip_addresses(v=4))
def test_an_ipv6_form_of_an_ipv4_address_is_never_more_public_than_it(ip):
    """Property: an IPv6 address that carries an IPv4 one is refused when that one is; the
    well-known NAT64 form of a public address stays public. (Python builds with the fix of
    CVE-2024-4032 refuse all of 6to4 already: it may be refused more, never less.)"""
    number = int(ip)
    nat64 = ipaddress.IPv6Address((0x64FF9B << 96) | number)
    forms = [
        nat64,
        ipaddress.IPv6Address((0x2002 << 112) | (number << 80) | 1),  # 6to4
        ipaddress.IPv6Address((0xFFFF << 32) | number),  # IPv4-mapped
        ipaddress.IPv6Address(number),  # IPv4-compatible
        ipaddress.IPv6Address((0xFFFF << 48) | number),  # IPv4-translated (SIIT)
    ]
    for form in forms:
        assert outbound.public(str(ip)) or not outbound.public(str(form)), form
    assert outbound.public(str(nat64)) == outbound.public(str(ip))


@pytest.mark.parametrize("address", ["fec0::1", "ff02::1", "224.0.0.1", "::ffff:0:7f00:1"])
def test_site_local_multicast_and_translated_addresses_are_not_public(address):
    assert not outbound.public(address)


def test_a_redirect_is_not_followed(make_game, receiver):
    """A receiver's 302 could point at the server's own network: the POST is a failure,
    and nothing goes where it points."""
    _alice, hook = _hook_and_events(make_game, receiver)
    elsewhere = Receiver()
    try:
        receiver.redirect_to = elsewhere.url
        deliver_due()
        hook.refresh_from_db()
        assert len(receiver.received) == 1 and elsewhere.received == []
        assert "HTTP 302" in hook.last_error and hook.failures == 1
    finally:
        elsewhere.server.shutdown()


PUBLIC = "93.184.215.14"
"""A global address, which the fake resolver gives the hook's name for the check."""


def test_the_post_goes_to_the_address_that_was_checked(make_game, receiver, monkeypatch, settings):
    """The name is looked up once, checked, and the connection made to that address with
    the name in the Host header. A second lookup could answer otherwise (DNS rebinding):
    here it would give 127.0.0.2, where nothing listens. (Faked: the resolver, and the
    route from the public address to the local receiver; this machine has neither DNS nor
    a public address to play them.)"""
    alice, hook = _hook_and_events(make_game, receiver)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    port = receiver.server.server_port
    *_, before, last = PlayerEvent.objects.filter(user=alice.user).order_by("id")
    Webhook.objects.filter(pk=hook.pk).update(  # one event left to send: one POST
        url=f"http://hooks.example.test:{port}/hook", last_event=before.pk
    )
    real_lookup, real_connect = socket.getaddrinfo, socket.create_connection
    answers = iter([PUBLIC])  # then 127.0.0.2
    looked_up: list[str] = []

    def resolver(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "hooks.example.test":
            return real_lookup(host, *args, **kwargs)
        looked_up.append(host)
        address = next(answers, "127.0.0.2")
        found = real_lookup("127.0.0.1" if address == PUBLIC else address, *args, **kwargs)
        return [(*info[:4], (address, *info[4][1:])) for info in found]

    def connect(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        routed = ("127.0.0.1", address[1]) if address[0] == PUBLIC else address
        return real_connect(routed, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    monkeypatch.setattr(socket, "create_connection", connect)
    deliver_due()
    hook.refresh_from_db()
    assert (hook.last_error, hook.last_event, len(looked_up)) == ("", last.pk, 1)
    [(headers, _data)] = receiver.received
    assert headers["host"] == f"hooks.example.test:{port}"


def test_an_address_that_does_not_answer_is_followed_by_the_next(make_game, receiver, monkeypatch):
    """A name with two addresses, the first dead: the POST goes to the second, as a browser
    would (both were checked)."""
    _alice, hook = _hook_and_events(make_game, receiver)
    port = receiver.server.server_port
    real = socket.getaddrinfo

    def resolver(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "hooks.example.test":
            return real(host, *args, **kwargs)
        return [*real("127.0.0.2", *args, **kwargs), *real("127.0.0.1", *args, **kwargs)]

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    Webhook.objects.filter(pk=hook.pk).update(url=f"http://hooks.example.test:{port}/hook")
    deliver_due()
    hook.refresh_from_db()
    assert hook.last_error == "" and receiver.received


def test_a_path_outside_ascii_is_sent_percent_encoded(make_game, receiver):
    """The URL field takes such an address; it must not stop the run (it did: an encoding
    error escaped the POST and the hook was retried forever, never failing)."""
    _alice, hook = _hook_and_events(make_game, receiver)
    port = receiver.server.server_port
    Webhook.objects.filter(pk=hook.pk).update(url=f"http://127.0.0.1:{port}/hoök?à=1")
    deliver_due()
    hook.refresh_from_db()
    assert hook.last_error == "" and receiver.received
    assert receiver.paths[-1] == "/ho%C3%B6k?%C3%A0=1"


def test_an_ipv6_address_without_a_port_gets_its_schemes(make_game, receiver, monkeypatch):
    """``http://[::1]/hook`` is port 80 of ::1 (the port is given: read from the host, the
    address's last group would be taken for one). Where it connects is recorded, not made:
    nothing listens on port 80 here."""
    _alice, hook = _hook_and_events(make_game, receiver)
    asked: list[tuple[str, int]] = []

    def connect(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        asked.append(address)
        raise ConnectionRefusedError("not here")

    monkeypatch.setattr(socket, "create_connection", connect)
    Webhook.objects.filter(pk=hook.pk).update(url="http://[::1]/hook")
    deliver_due()
    hook.refresh_from_db()
    assert asked == [("::1", 80)] and "not here" in hook.last_error


def test_a_name_in_another_script_is_the_domain_a_browser_would_reach(
    make_game, receiver, monkeypatch
):
    """``faß.de`` is ``xn--fa-hia.de`` (IDNA 2008, as browsers): Python's own codec would
    send the player's events to ``fass.de``, another domain."""
    _alice, hook = _hook_and_events(make_game, receiver)
    port = receiver.server.server_port
    real = socket.getaddrinfo
    looked_up: list[str] = []

    def resolver(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("127.0.0.1", "localhost"):
            return real(host, *args, **kwargs)
        looked_up.append(host)
        return real("127.0.0.1", *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    Webhook.objects.filter(pk=hook.pk).update(url=f"http://faß.de:{port}/hook")
    deliver_due()
    hook.refresh_from_db()
    assert hook.last_error == "" and set(looked_up) == {"xn--fa-hia.de"}
    assert receiver.received[0][0]["host"] == f"xn--fa-hia.de:{port}"


def test_new_events_wake_an_idle_hook_and_an_idle_hook_is_not_read(make_game, receiver):
    """The periodic run reads only the hooks with news (issue 15): once everything is
    delivered it looks at no hook at all, and the next move's events reach the receiver."""
    alice, hook = _hook_and_events(make_game, receiver)
    game_id = PlayerEvent.objects.filter(user=alice.user).values_list("game_id", flat=True)[0]
    assert deliver_due() > 0
    delivered = len(receiver.received)
    with CaptureQueriesContext(connection) as queries:
        assert deliver_due() == 0
    assert len(queries) == 1  # the selection, finding nothing: no hook claimed or read
    game = Game.objects.get(pk=game_id)
    seat = seat_to_act(game)
    services.submit_command(game=game, user=seat.user, text=legal_text(game))
    record_moves(game_id=game.pk, seqs=[3])  # what the outbox's receiver writes
    hook.refresh_from_db()
    news = PlayerEvent.objects.filter(user=alice.user, id__gt=hook.last_event).count()
    assert news > 0
    assert deliver_due() == news
    assert len(receiver.received) == delivered + news


def test_more_events_than_one_run_takes_are_delivered_by_the_next_runs(make_game, receiver):
    alice, _hook = _hook_and_events(make_game, receiver)
    game_id = PlayerEvent.objects.filter(user=alice.user).values_list("game_id", flat=True)[0]
    write(
        [
            PlayerEvent(user=alice.user, game_id=game_id, kind="move", key=f"k{n}", data={})
            for n in range(BATCH + 5)
        ]
    )
    total = PlayerEvent.objects.filter(user=alice.user).count()
    assert deliver_due() == BATCH
    assert deliver_due() == total - BATCH
    assert deliver_due() == 0
    assert len(receiver.received) == total


def test_why_it_failed_is_written_in_the_players_language(make_game, receiver):
    """``last_error`` is shown in the player's webhook list and in the email that switches
    the hook off: in their language, as the rest of the email."""
    alice, hook = _hook_and_events(make_game, receiver)
    alice.user.language = "fr"
    alice.user.save(update_fields=["language"])
    receiver.fail = 1
    deliver_due()
    hook.refresh_from_db()
    assert hook.last_error == "le destinataire a répondu HTTP 500"
    with translation.override("it"):
        assert outbound._resolved("ftp://example.org/")[1] == "non è un indirizzo http(s)"


def test_a_receiver_that_trickles_its_answer_is_cut_off(make_game, receiver, monkeypatch):
    """Each read has its own timeout, which every byte restarts: a receiver that sends its
    answer a byte at a time would hold the run past its lease (another run would then post
    the same events). The POST has ``POST_SECONDS`` in all."""
    _alice, hook = _hook_and_events(make_game, receiver)
    monkeypatch.setattr(outbound, "POST_SECONDS", 1.0)
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def trickle() -> None:
        while not stop.is_set():
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                for byte in b"HTTP/1.1 204 No Content\r\n\r\n":
                    if stop.wait(0.3):
                        return
                    with contextlib.suppress(OSError):
                        conn.sendall(bytes([byte]))

    threading.Thread(target=trickle, daemon=True).start()
    Webhook.objects.filter(pk=hook.pk).update(
        url=f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    )
    started = time.monotonic()
    try:
        deliver_due()
        hook.refresh_from_db()
        assert hook.last_error == "no answer within 1 s" and hook.failures == 1
        assert time.monotonic() - started < 5  # (the whole answer would take 8 s)

        # Time spent connecting counts too (found by review: the limit came while the
        # connection was being made, and then the answer trickled on unbounded).
        connect = socket.create_connection

        def slow_connect(*args: Any, **kwargs: Any) -> socket.socket:
            time.sleep(1.2)
            return connect(*args, **kwargs)

        monkeypatch.setattr(socket, "create_connection", slow_connect)
        started = time.monotonic()
        deliver_due(now=timezone.now() + timedelta(days=1))  # (past the backoff)
        hook.refresh_from_db()
        assert hook.last_error == "no answer within 1 s" and hook.failures == 2
        assert time.monotonic() - started < 5
    finally:
        stop.set()
        listener.close()


def test_a_run_stops_taking_events_before_its_lease_ends(make_game, receiver):
    """A run that could not finish another POST within its lease leaves the rest to the
    next run (the hook says it has more): two runs never post the same hook at once. The
    lease is written from the run's ``now``, which a long run gives its last hooks late:
    what is left of it counts, not its length."""
    alice, _hook = _hook_and_events(make_game, receiver)
    receiver.delay = 0.4
    spare = outbound.TIMEOUT_SECONDS + outbound.POST_SECONDS + 10
    late = outbound.LEASE - timedelta(seconds=spare + 1)  # 1 s of lease left to post in
    game_id = PlayerEvent.objects.filter(user=alice.user).values_list("game_id", flat=True)[0]
    write(
        [
            PlayerEvent(user=alice.user, game_id=game_id, kind="move", key=f"k{n}", data={})
            for n in range(4)
        ]
    )
    total = PlayerEvent.objects.filter(user=alice.user).count()
    first = deliver_due(now=timezone.now() - late)
    assert 1 <= first < total
    hook = Webhook.objects.get(user=alice.user)
    assert hook.pending and hook.retry_at is None and hook.failures == 0
    receiver.delay = 0
    assert deliver_due() == total - first
    assert len(receiver.received) == total


def test_a_long_reason_is_cut_to_what_the_column_holds(make_game, receiver):
    """A 253-character host name in a refusal made ``last_error`` longer than its column:
    the UPDATE failed and took the rest of the run with it (found by review)."""
    _alice, hook = _hook_and_events(make_game, receiver)
    outbound._failed(hook, "x" * 400, timezone.now())
    hook.refresh_from_db()
    assert hook.last_error == "x" * 300 and hook.failures == 1


def test_a_deleted_account_hears_nothing_more_of_the_table(make_game, receiver):
    """QA: Ada added a webhook, then deleted her account; Bob's next table message was still
    written as an event of hers and POSTed to her URL, with her earlier private message.
    Her webhooks, waiting events and calendar address go with the account."""
    ada, bob, cy = make_player("ada"), make_player("bob"), make_player("cy")
    made = ada.client.post("/api/v1/webhooks/", {"url": receiver.url}, format="json")
    assert made.status_code == 201, made.content
    game = make_game(ada.user, bob.user, cy.user)
    to_bob = game.seats.get(user=bob.user).order
    whisper = talk.say(game=game, user=ada.user, text="psst bob, ally?", to=to_bob)
    record_table(game_id=game.pk, change="message", message_id=whisper.pk)
    assert PlayerEvent.objects.filter(user=ada.user).exists()  # waiting for her hook
    new_feed(ada.user)
    browser = Client()
    browser.force_login(ada.user)
    deleted = browser.post("/profile/delete/", {"password": "a-long-password-1"})
    assert deleted.status_code == 302

    said = talk.say(game=game, user=bob.user, text="the table hears this")
    record_table(game_id=game.pk, change="message", message_id=said.pk)
    deliver_due()

    assert receiver.received == []
    assert not PlayerEvent.objects.filter(user=ada.user).exists()
    assert not Webhook.objects.filter(user=ada.user).exists()
    assert not CalendarFeed.objects.filter(user=ada.user).exists()
    assert PlayerEvent.objects.filter(user=bob.user, kind="message").count() == 2


def test_no_event_is_written_for_an_inactive_player(make_game):
    """An account switched off (deleted, or deactivated by staff) is told nothing: no move,
    no turn, no offer, no message becomes an event of theirs."""
    ada, bob = make_player("ada"), make_player("bob")
    game = make_game(ada.user, bob.user)
    User.objects.filter(pk=ada.user.pk).update(is_active=False)
    seat = seat_to_act(game)
    services.submit_command(game=game, user=seat.user, text=legal_text(game))
    record_moves(game_id=game.pk, seqs=[1])
    said = talk.say(game=game, user=bob.user, text="anyone there?")
    record_table(game_id=game.pk, change="message", message_id=said.pk)

    assert not PlayerEvent.objects.filter(user=ada.user).exists()
    assert {"move", "message"} <= set(
        PlayerEvent.objects.filter(user=bob.user).values_list("kind", flat=True)
    )


def test_the_hook_of_an_inactive_player_is_switched_off_unsent(make_game, receiver):
    """Events written before the account was switched off are not delivered, and the hook
    stops: why, in the player's language."""
    alice, hook = _hook_and_events(make_game, receiver)
    User.objects.filter(pk=alice.user.pk).update(is_active=False, language="fr")

    assert deliver_due() == 0
    assert receiver.received == []
    hook.refresh_from_db()
    assert not hook.active and not hook.pending
    assert hook.last_error == "le compte est supprimé ou désactivé"
    assert deliver_due(now=timezone.now() + timedelta(days=1)) == 0
    assert receiver.received == []


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8933/hook", "http://[::1]/hook", "http://10.0.0.7/hook"]
)
def test_a_private_address_is_refused_at_creation(db, settings, url):
    """A play-tester's receiver on 127.0.0.1 was accepted (201), then every delivery failed
    with "127.0.0.1 is a private address": the creation says so, and makes nothing."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    alice = make_player("alice")
    made = alice.client.post("/api/v1/webhooks/", {"url": url}, format="json")
    assert made.status_code == 400, made.content
    error = body(made)["error"]
    assert error["code"] == "invalid"
    host = url.split("/")[2].rsplit(":", 1)[0] if "[" not in url else "::1"
    assert f"{host} is a private address" in error["detail"]["fields"]["url"][0]
    assert not Webhook.objects.filter(user=alice.user).exists()


def test_a_private_address_is_taken_when_the_server_allows_it(db, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    alice = make_player("alice")
    made = alice.client.post(
        "/api/v1/webhooks/", {"url": "http://127.0.0.1:8933/hook"}, format="json"
    )
    assert made.status_code == 201, made.content


def test_a_name_that_does_not_resolve_yet_is_taken(db, settings):
    """Its receiver may not be up yet: each delivery checks again and says why it failed."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    alice = make_player("alice")
    made = alice.client.post("/api/v1/webhooks/", {"url": "https://hooks.invalid/x"}, format="json")
    assert made.status_code == 201, made.content


@pytest.mark.parametrize(("given", "read"), [("true", True), ("false", False), (None, False)])
def test_the_private_switch_is_read_from_the_environment(given, read):
    env = {k: v for k, v in os.environ.items() if k != "WEBHOOKS_ALLOW_PRIVATE"}
    if given is not None:
        env["WEBHOOKS_ALLOW_PRIVATE"] = given
    env |= {"DEBUG": "true", "DJANGO_SETTINGS_MODULE": "lords.settings"}
    show = "from django.conf import settings; print(settings.WEBHOOKS_ALLOW_PRIVATE)"
    result = subprocess.run(
        [sys.executable, "-c", show], env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == str(read)
