"""The event stream (``GET /api/v1/events/``, server-sent events) under a live server: a
client that reads some events, disconnects, and comes back with ``Last-Event-ID`` gets
everything it missed, once, in order, including what happens while it listens."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
import requests
import time_machine

from games import services
from games.models import PlayerEvent
from games.services import talk
from games.services.hooks import announce_pending
from tests.api.helpers import make_player
from tests.platform.helpers import legal_text, seat_to_act


def _play(game: Any, moves: int) -> None:
    """``moves`` legal moves by whoever is to act, then the outbox drained (the worker)."""
    for _ in range(moves):
        seat = seat_to_act(game)
        services.submit_command(game=game, user=seat.user, text=legal_text(game))
    announce_pending()


def _read(url: str, headers: dict[str, str], stop_after: int | None = None) -> list[Any]:
    """The events of one connection: until ``stop_after`` of them (then hang up), or until
    the server ends the stream."""
    events: list[Any] = []
    with requests.get(url, headers=headers, stream=True, timeout=30) as response:
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for raw in response.iter_lines():
            line = raw.decode("utf-8")
            if line:
                name, _, value = line.partition(":")
                fields[name] = value.lstrip()
                continue
            if "data" in fields:
                data = json.loads(fields["data"])
                assert str(data["id"]) == fields["id"] and data["kind"] == fields["event"]
                events.append(data)
                if stop_after is not None and len(events) >= stop_after:
                    break  # the client disconnects
            fields = {}
    return events


@pytest.mark.django_db(transaction=True)
def test_a_client_that_disconnects_resumes_with_last_event_id_and_misses_nothing(
    live_server: Any, make_game: Any, settings: Any
) -> None:
    settings.EVENT_STREAM_SECONDS = 2
    settings.EVENT_STREAM_POLL_SECONDS = 0.05
    alice, bob = make_player("alice"), make_player("bob")
    game = make_game(alice.user, bob.user)
    _play(game, 3)
    url = live_server.url + "/api/v1/events/"
    auth = {"Authorization": f"Token {alice.token}", "Accept": "text/event-stream"}

    first = _read(url + "?last_event_id=0", auth, stop_after=2)
    _play(game, 3)  # while the client is away
    rest: list[Any] = []
    reader = threading.Thread(
        target=lambda: rest.extend(_read(url, auth | {"Last-Event-ID": str(first[-1]["id"])}))
    )
    reader.start()
    time.sleep(0.5)
    _play(game, 1)  # while it listens
    reader.join()

    kept = list(PlayerEvent.objects.filter(user=alice.user).values_list("id", "kind"))
    assert [(e["id"], e["kind"]) for e in first + rest] == kept
    assert {kind for _, kind in kept} == {"move", "your_turn"}
    moves = [e for e in first + rest if e["kind"] == "move"]
    assert [e["seq"] for e in moves] == list(range(1, 8)) and moves[0]["game"] == game.pk


@pytest.mark.django_db
def test_a_drained_announcement_drained_again_writes_no_event_twice(make_game: Any) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = make_game(alice.user, bob.user)
    from games.events import record_moves

    seq = game.version
    record_moves(game_id=game.pk, seqs=[seq])
    before = PlayerEvent.objects.count()
    record_moves(game_id=game.pk, seqs=[seq])  # a lapsed lease: the same moves again
    assert PlayerEvent.objects.count() == before > 0


@pytest.mark.django_db
def test_a_bad_last_event_id_is_refused_and_strangers_get_nothing(client: Any) -> None:
    alice = make_player("alice")
    refused = alice.client.get("/api/v1/events/", HTTP_LAST_EVENT_ID="yesterday")
    assert refused.status_code == 400 and "last_event_id" in refused.content.decode()
    assert client.get("/api/v1/events/").status_code == 401


# -- trade offers and table talk (issue 13) -------------------------------------------------


def _kinds(user: Any, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in PlayerEvent.objects.filter(user=user, kind=kind).order_by("id")]


@pytest.mark.django_db(transaction=True)
def test_offers_and_messages_reach_the_stream_of_the_players_who_may_see_them(
    live_server: Any, make_game: Any, settings: Any
) -> None:
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    settings.EVENT_STREAM_SECONDS = 1
    settings.EVENT_STREAM_POLL_SECONDS = 0.05
    alice, bob, cy = make_player("alice"), make_player("bob"), make_player("cy")
    game = make_game(alice.user, bob.user, cy.user, game_type="lords-of-vegas", seats=3)
    seat = {
        name: game.seats.get(user=p.user) for name, p in zip("abc", (alice, bob, cy), strict=True)
    }
    pay = {
        "type": "trade",
        "steps": [
            {"type": "pay", "payer": seat["a"].colour, "payee": seat["b"].colour, "amount": 1}
        ],
    }
    with time_machine.travel(datetime(2026, 11, 2, 9, tzinfo=UTC), tick=False):
        offer = services.propose_trade(game=game, user=alice.user, command=pay)
        services.decline_trade(offer=offer, user=bob.user)
        talk.say(game=game, user=alice.user, text="good game, all")
        talk.say(game=game, user=alice.user, text="psst, bob", to=seat["b"].order)
        talk.set_mute(game=game, user=cy.user, order=seat["b"].order, muted=True)
        talk.say(game=game, user=bob.user, text="cy does not hear me")
        announce_pending()  # the worker drains the outbox
        announce_pending()  # a lapsed lease: the same news again writes nothing twice

    auth = {"Authorization": f"Token {cy.token}", "Accept": "text/event-stream"}
    streamed = _read(live_server.url + "/api/v1/events/?last_event_id=0", auth)
    offers = [e for e in streamed if e["kind"] == "offer"]
    assert [(e["offer"], e["event"]) for e in offers] == [
        (offer.pk, "proposed"),
        (offer.pk, "declined"),
    ]
    assert offers[0]["proposer"] == seat["a"].order and offers[0]["game"] == game.pk
    said = [(e["text"], e["private"]) for e in streamed if e["kind"] == "message"]
    assert said == [("good game, all", False)]  # not the whisper, not the muted player

    heard_by_bob = [(e["text"], e["to"]) for e in _kinds(bob.user, "message")]
    assert heard_by_bob == [
        ("good game, all", None),
        ("psst, bob", seat["b"].order),
        ("cy does not hear me", None),
    ]
    assert [e["text"] for e in _kinds(alice.user, "message")] == [
        "good game, all",
        "psst, bob",
        "cy does not hear me",
    ]
    assert len(_kinds(alice.user, "offer")) == len(_kinds(bob.user, "offer")) == 2
