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
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 1)
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


def test_a_broker_outage_does_not_fail_the_move(
    make_game, ada, bob, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    """The broker refuses the task after the commit: the move stands, the submission
    answers normally, nothing is sent, and the failure is logged."""
    from games.engines.registry import get_engine
    from games.models import Move
    from notifications import tasks

    tried: list[object] = []

    def down(*args: object) -> None:
        tried.append(args)
        raise ConnectionRefusedError("[Errno 111] Connection refused (the broker is down)")

    monkeypatch.setattr(tasks.notify_moves, "delay", down)
    game = make_game(ada, bob)
    engine = get_engine(game.game_type)
    seat = game.seats.select_related("user").get(to_act=True)
    text = engine.format(engine.legal_commands(game.state, seat.order)[0])

    with django_capture_on_commit_callbacks(execute=True):
        result = services.submit_command(game=game.pk, user=seat.user, text=text, source="web")

    assert tried  # the hook ran after the commit and reached for the broker
    assert [m.text for m in result.moves][:1] == [text]
    move = Move.objects.get(game=game, seq=1)
    assert (move.seat_id, move.text, move.source) == (seat.pk, text, "web")
    game.refresh_from_db()
    assert game.version == result.version >= 1
    assert "could not enqueue" in caplog.text
    assert not mail.outbox
