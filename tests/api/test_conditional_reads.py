"""Conditional reads of a game (issue #15, target 2): the view's ETag changes whenever what a
player reads could change, ``If-None-Match`` with a current tag answers 304 with no body,
and a move's answer carries the tag of the view right after it, so a client needs no read to
learn it (``games/view_tags.py``)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import time_machine
from django.utils import timezone

from games.models import Seat
from notifications.models import EmailPreference
from tests.api.helpers import Player, assert_error, body, start_game


def _read(player: Player, game: int, tag: str | None = None, **headers: Any) -> Any:
    if tag is not None:
        headers["HTTP_IF_NONE_MATCH"] = tag
    return player.get(f"/games/{game}/", **headers)


def _mover(game: int, *players: Player) -> tuple[Player, dict[str, Any]]:
    for player in players:
        view = body(_read(player, game))
        if view["your_turn"]:
            return player, view
    raise AssertionError("the game waits on nobody")


def test_an_unchanged_view_answers_304_with_no_body(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob], "vegas")
    first = _read(alice, game)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag.startswith(f'"{body(first)["version"]}.')
    again = _read(alice, game, tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == tag
    # A list of tags, weak or not, matches too; another tag does not.
    assert _read(alice, game, f'"0.x", W/{tag}').status_code == 304
    assert _read(alice, game, '"0.x"').status_code == 200


@time_machine.travel(datetime(2026, 11, 28, 2, 30, tzinfo=UTC), tick=True)
def test_a_moves_answer_carries_the_tag_a_read_would_give(
    alice: Player, bob: Player, carol: Player
) -> None:
    """The tag made from the rows just written equals the one read back: in a Vegas game
    and in a Lords of Vegas game with a time bank, a weekend pause and quiet hours (every
    kind of column: times, durations, JSON), for every move of the first rounds; the quiet
    hours and the weekend are a player's own, in a zone that is not UTC, and the moves are
    played in them (Friday 23:30 in São Paulo)."""
    EmailPreference.objects.create(user=bob.user, quiet_from=time(22), quiet_until=time(7))
    bob.user.time_zone = "America/Sao_Paulo"
    bob.user.save(update_fields=["time_zone"])
    games = [
        start_game(alice, [bob], "vegas"),
        start_game(alice, [bob, carol], "lords-of-vegas"),
    ]
    bank = {"kind": "bank", "bank_hours": 72, "increment_hours": 12, "weekend_pause": True}
    created = alice.post("/games/", {"game_type": "lords-of-vegas", "seats": 2, "clock": bank})
    assert created.status_code == 201, created.content
    banked = body(created)["id"]
    assert bob.post(f"/games/{banked}/join/", {}).status_code == 200
    assert alice.post(f"/games/{banked}/start/").status_code == 200
    games.append(banked)
    players = (alice, bob, carol)
    for game in games:
        for _ in range(8):
            mover, view = _mover(game, *players)
            sent = mover.post(
                f"/games/{game}/moves/",
                {"command": view["legal_commands"][0]["text"], "expected_version": view["version"]},
            )
            assert sent.status_code == 201, sent.content
            tag = sent.headers["ETag"]
            assert _read(mover, game, tag).status_code == 304, (game, body(sent))
            # The others' views moved on from what they held.
            for other in players:
                if other is not mover and other.user.seats.filter(game_id=game).exists():
                    assert _read(other, game, tag).status_code == 200


def test_the_tag_changes_with_what_the_view_shows_between_moves(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob], "vegas")
    tag = _read(alice, game).headers["ETag"]
    # Bob goes on vacation: the view shows when he is back.
    bob.user.away_until = timezone.now() + timedelta(days=3)
    bob.user.save(update_fields=["away_until"])
    changed = _read(alice, game, tag)
    assert changed.status_code == 200
    assert any(s["away_until"] for s in body(changed)["seats"])
    tag = changed.headers["ETag"]
    # He renames himself.
    assert bob.patch("/me/", {"display_name": "Robert"}).status_code == 200
    renamed = _read(alice, game, tag)
    assert renamed.status_code == 200
    assert "Robert" in [s["name"] for s in body(renamed)["seats"]]
    tag = renamed.headers["ETag"]
    # A seat's count of missed deadlines (the sweep writes seats, not moves).
    Seat.objects.filter(game_id=game, user=bob.user).update(timeouts=1)
    assert _read(alice, game, tag).status_code == 200


def test_each_reader_and_language_has_its_own_tag(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob], "vegas")
    english = _read(alice, game).headers["ETag"]
    french = _read(alice, game, HTTP_ACCEPT_LANGUAGE="fr").headers["ETag"]
    assert english != french
    assert _read(alice, game, english, HTTP_ACCEPT_LANGUAGE="fr").status_code == 200
    assert _read(bob, game, english).status_code == 200


def test_a_tag_opens_no_private_game(alice: Player, bob: Player, carol: Player) -> None:
    created = alice.post("/games/", {"game_type": "vegas", "seats": 2, "private": True})
    game = body(created)["id"]
    tag = _read(alice, game).headers["ETag"]
    assert_error(_read(carol, game, tag), 403)
    assert_error(_read(carol, game, "*"), 403)


def test_the_tag_serves_as_if_match(alice: Player, bob: Player) -> None:
    game = start_game(alice, [bob], "vegas")
    mover, view = _mover(game, alice, bob)
    tag = _read(mover, game).headers["ETag"]
    command = view["legal_commands"][0]["text"]
    sent = mover.post(f"/games/{game}/moves/", {"command": command}, HTTP_IF_MATCH=tag)
    assert sent.status_code == 201, sent.content
    mover, view = _mover(game, alice, bob)
    stale = mover.post(f"/games/{game}/moves/", {"command": command}, HTTP_IF_MATCH=tag)
    assert assert_error(stale, 409)["code"] == "stale_version"


def test_a_tag_cannot_be_made_without_the_servers_secret(
    alice: Player, bob: Player, settings: Any
) -> None:
    """The tag hashes each player's address: unkeyed, a player who could rebuild every other
    column it hashes could test guesses of a co-player's address against it (a security
    review). Keyed with the server's secret, the same view under another secret has
    another tag."""
    game = start_game(alice, [bob], "vegas")
    tag = _read(alice, game).headers["ETag"]
    assert _read(alice, game, tag).status_code == 304
    settings.SECRET_KEY = "another-secret-" + "x" * 40
    other = _read(alice, game)
    assert other.status_code == 200
    assert other.headers["ETag"] != tag and other.headers["ETag"].split(".")[0] == tag.split(".")[0]
