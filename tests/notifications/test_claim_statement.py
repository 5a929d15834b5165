"""A new email's claim is one statement (``INSERT ... ON CONFLICT DO NOTHING RETURNING``):
in the worker's autocommit no transaction or savepoint around it, and an email claimed
before is found, not created twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from notifications import services
from notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


def _notice(game: Any, user: Any) -> services.Notice:
    seat = game.seats.select_related("user").get(user=user)
    return services.Notice(seat, Notification.Kind.TURN, f"v{game.version + 100}")


def test_a_new_claim_alone_is_one_statement(make_game: Any, ada: Any, bob: Any, smtp: Any) -> None:
    game = make_game(ada, bob)
    notice = _notice(game, ada)

    with CaptureQueriesContext(connection) as captured:
        note = services.claim(game, notice)

    assert note is not None and note.pk is not None
    assert [q["sql"].split(" (")[0] for q in captured.captured_queries] == [
        'INSERT INTO "notifications_notification"'
    ]
    assert "ON CONFLICT DO NOTHING" in captured.captured_queries[0]["sql"]
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.SENDING


def test_an_email_claimed_before_is_not_claimed_again(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    game = make_game(ada, bob)
    notice = _notice(game, ada)
    first = services.claim(game, notice)

    assert first is not None
    assert services.claim(game, notice) is None  # (being sent under a live lease)
    with transaction.atomic():  # (inside a caller's transaction: in a savepoint)
        assert services.claim(game, notice) is None
    assert Notification.objects.filter(user=ada, game=game, key=notice.key).count() == 1
