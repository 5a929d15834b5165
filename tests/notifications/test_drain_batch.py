"""The drain announces a claim's games one by one, reading what their emails and events
need once for the whole batch (``hooks.Batch``): each game still gets exactly its own
emails and events, and a player's choices in one game do not leak into another."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from games import events
from games.models import Announcement, Game, PlayerEvent
from games.services import hooks
from notifications.models import GameMute, Notification
from tests.notifications.conftest import play

pytestmark = pytest.mark.django_db


def _waiting(game: Game):
    return game.seats.select_related("user").get(to_act=True).user


def test_one_batch_of_several_games_sends_each_its_own_emails(make_game, ada, bob, cy, smtp):
    games = [make_game(ada, bob), make_game(bob, cy), make_game(cy, ada)]
    Announcement.objects.all().delete()  # (the starts': their commit callbacks never ran)
    for game in games:
        play(game, 1)  # (eager tasks, but no commit callback here: the outbox fills)
    for game in games:
        game.refresh_from_db()
    muted = games[1]
    GameMute.objects.create(user=_waiting(muted), game=muted)
    seated = {g.pk: set(g.seats.values_list("user_id", flat=True)) for g in games}
    waiting = {g.pk: _waiting(g) for g in games}

    announced = hooks.announce_pending()

    assert announced == 3 and not Announcement.objects.exists()
    sent = Notification.objects.filter(status=Notification.Status.SENT)
    assert {(n.game_id, n.user_id) for n in sent} == {
        (g.pk, waiting[g.pk].pk) for g in games if g is not muted
    }
    received = smtp.wait_for(2)
    assert sorted(m["To"] for m in received) == sorted(
        waiting[g.pk].email for g in games if g is not muted
    )
    game_of = {n.message_id: n.game_id for n in sent}
    for message in received:  # each email about its own game
        assert f"[Lords #{game_of[message['Message-ID']]}]" in message["Subject"]
    for game in games:  # the event feed: the move to every seated player, each game apart
        events = PlayerEvent.objects.filter(game=game, kind="move", key=f"move:{game.pk}:1")
        assert set(events.values_list("user_id", flat=True)) == seated[game.pk]
        turn = PlayerEvent.objects.get(game=game, kind="your_turn")
        assert turn.user_id == waiting[game.pk].pk and turn.data["version"] == game.version


def test_a_game_announced_again_in_a_later_batch_is_read_afresh(make_game, ada, bob, smtp):
    """Nothing read for one claim is kept for the next: the game's next move, announced by
    a later run, is told from the game as it is then."""
    game = make_game(ada, bob)
    Announcement.objects.all().delete()
    play(game, 1)
    assert hooks.announce_pending() == 1
    play(game, 1)
    assert hooks.announce_pending() == 1
    game.refresh_from_db()
    versions = set(
        Notification.objects.filter(game=game, kind=Notification.Kind.TURN).values_list(
            "version", flat=True
        )
    )
    assert versions == {game.version - 1, game.version}
    assert len(smtp.wait_for(2)) == 2


def _queries(run: Callable[[], Any]) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured.captured_queries]


def _backlog(make_game: Any, players: list[Any], games: int) -> list[Game]:
    """``games`` started games of two, one move each committed, none announced yet."""
    made = [make_game(players[i % 3], players[(i + 1) % 3]) for i in range(games)]
    Announcement.objects.all().delete()
    for game in made:
        play(game, 1)
    return made


def test_a_batch_writes_the_event_rows_of_all_its_games_at_once(make_game, ada, bob, cy, smtp):
    """One lock, one INSERT and one webhook flag UPDATE for the claim, not one per game;
    each game still gets its own rows."""
    games = _backlog(make_game, [ada, bob, cy], 3)

    sql = _queries(hooks.announce_pending)

    assert sum(f"pg_advisory_xact_lock({events.WRITE_LOCK})" in q for q in sql) == 1
    assert sum(q.startswith('INSERT INTO "games_playerevent"') for q in sql) == 1
    assert sum(q.startswith('UPDATE "games_webhook"') for q in sql) == 1
    for game in games:
        assert PlayerEvent.objects.filter(game=game, key=f"move:{game.pk}:1").count() == 2
    assert not Announcement.objects.exists()


def test_when_a_batch_write_fails_each_game_writes_its_own(
    make_game, ada, bob, cy, smtp, monkeypatch
):
    """A failed write of the batch's rows falls back to one write per game, so a game
    whose rows cannot be written keeps its announcement (for a later run) and the
    others are done."""
    games = _backlog(make_game, [ada, bob, cy], 3)
    bad = games[1]
    write = events.write

    def failing(rows: list[PlayerEvent]) -> int:
        if any(row.game_id == bad.pk for row in rows):
            raise DatabaseError("refused")
        return write(rows)

    monkeypatch.setattr(events, "write", failing)

    assert hooks.announce_pending() == 2

    assert set(Announcement.objects.values_list("game_id", flat=True)) == {bad.pk}
    assert not PlayerEvent.objects.filter(game=bad).exists()
    for game in (games[0], games[2]):
        assert PlayerEvent.objects.filter(game=game, kind="move").exists()


def test_the_moves_an_email_tells_are_read_once_for_the_whole_batch(make_game, ada, bob, cy, smtp):
    """The seats' latest moves, the moves since and since the last 'your turn' told: a
    few queries per batch, the same for two games as for six (the emails and the event
    feed together)."""

    def move_reads(games: int) -> int:
        _backlog(make_game, [ada, bob, cy], games)
        sql = _queries(hooks.announce_pending)
        return sum('FROM "games_move"' in q for q in sql)

    assert move_reads(2) == move_reads(6)
    assert len(smtp.wait_for(8)) == 8
