"""The one write path enqueues the notifications task after the commit, and only then."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from games import services
from tests.notifications.conftest import play

pytestmark = pytest.mark.django_db


def test_a_committed_move_sends_the_next_player_their_turn(
    make_game, ada, bob, django_capture_on_commit_callbacks
):
    game = make_game(ada, bob)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(game, 1)
    assert len(callbacks) == 1
    [message] = mail.outbox
    waiting = game.seats.select_related("user").get(to_act=True).user
    assert message.to == [waiting.email]
    assert "Your turn" in message.subject


def test_a_rolled_back_move_notifies_nobody(
    make_game, ada, bob, django_capture_on_commit_callbacks
):
    game = make_game(ada, bob)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                play(game, 1)
                raise RuntimeError("roll back")
        except RuntimeError:
            pass
    assert not callbacks
    assert not mail.outbox


def test_a_broker_outage_does_not_fail_the_move(make_game, ada, bob, monkeypatch, caplog):
    from notifications import tasks

    def down(*args: object) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.notify_moves, "delay", down)
    from games.services import hooks

    hooks.after_moves(1, [1])
    assert "could not enqueue" in caplog.text
    assert services is not None
