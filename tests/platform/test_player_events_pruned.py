"""The players' events (the stream's and the webhooks' rows) are kept PLAYER_EVENTS_KEEP_DAYS,
then pruned by a daily task: the table does not grow for ever, and a run with nothing old
costs one read of one row, however many events there are."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import events, services
from games.models import PlayerEvent
from games.services.hooks import announce_pending
from games.tasks import prune_player_events
from tests.platform.helpers import legal_text, seat_to_act

pytestmark = pytest.mark.django_db


def _events(game: Any, moves: int) -> list[PlayerEvent]:
    for _ in range(moves):
        seat = seat_to_act(game)
        services.submit_command(game=game, user=seat.user, text=legal_text(game))
    announce_pending()  # (the worker: the events are written where the outbox is drained)
    return list(PlayerEvent.objects.order_by("id"))


def test_the_events_older_than_the_keeping_time_go_and_the_others_stay(make_game, ada, bob):
    found = _events(make_game(ada, bob), moves=4)
    assert len(found) >= 6
    old, kept = found[:4], found[4:]
    long_ago = timezone.now() - timedelta(days=settings.PLAYER_EVENTS_KEEP_DAYS, hours=1)
    PlayerEvent.objects.filter(pk__in=[e.pk for e in old]).update(created_at=long_ago)
    assert prune_player_events() == len(old)
    assert list(PlayerEvent.objects.order_by("id")) == kept
    assert events.events_after(ada, 0, 100) == [e for e in kept if e.user_id == ada.pk]
    assert events.prune() == 0  # a second run finds nothing


def test_when_every_event_is_old_they_all_go_in_batches(make_game, ada, bob, monkeypatch):
    found = _events(make_game(ada, bob), moves=3)
    later = timezone.now() + timedelta(days=settings.PLAYER_EVENTS_KEEP_DAYS + 1)
    monkeypatch.setattr(events, "PRUNE_BATCH", 2)
    assert events.prune(now=later) == len(found) and not PlayerEvent.objects.exists()


def test_a_run_with_nothing_old_reads_one_row(make_game, ada, bob):
    _events(make_game(ada, bob), moves=3)
    with CaptureQueriesContext(connection) as queries:
        assert events.prune() == 0
    [read] = [q["sql"] for q in queries]
    assert read.startswith("SELECT") and "LIMIT 1" in read and "ORDER BY" in read


def test_beat_runs_it_daily():
    [entry] = [
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "games.tasks.prune_player_events"
    ]
    assert entry["schedule"].hour == {4}


def test_a_move_older_than_the_keeping_time_is_not_told_again(make_game, ada, bob):
    """An announcement retried for that long (a receiver failing for a month) would bring
    back, as news, the events the pruning took away. (The log is append-only: the move is
    played a month ago rather than backdated.)"""
    then = timezone.now() - timedelta(days=settings.PLAYER_EVENTS_KEEP_DAYS, hours=1)
    with time_machine.travel(then, tick=False):
        game = make_game(ada, bob)
        announce_pending()
        seat = seat_to_act(game)
        services.submit_command(game=game, user=seat.user, text=legal_text(game))
    announce_pending()  # a month later: the move's announcement, still there
    assert not PlayerEvent.objects.filter(kind="move").exclude(key__endswith=":0").exists()
