"""The one write path announces committed moves through its outbox (a row in the move's
transaction), and only committed ones; the emails follow from the announcement."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.db import transaction

from games import services
from tests.notifications.conftest import play

pytestmark = pytest.mark.django_db


def test_a_committed_move_sends_the_next_player_their_turn(
    make_game, ada, bob, django_capture_on_commit_callbacks
):
    from games.models import Announcement

    game = make_game(ada, bob)
    Announcement.objects.all().delete()  # (the join's and the start's: never drained here)
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


def test_with_a_worker_the_move_leaves_its_announcement_for_the_periodic_task(
    make_game, ada, bob, settings, django_capture_on_commit_callbacks
):
    """Tasks not eager (a worker runs them): the move commits with its announcement in the
    outbox and the request sends nothing (no broker round trip in the move path); the
    periodic task announces it and the next player gets their email, once."""
    from games.engines.registry import get_engine
    from games.models import Announcement
    from games.tasks import announce_moves

    game = make_game(ada, bob)
    Announcement.objects.all().delete()  # (the start's: its commit callbacks never ran here)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    engine = get_engine(game.game_type)
    seat = game.seats.select_related("user").get(to_act=True)
    text = engine.format(engine.legal_commands(game.state, seat.order)[0])

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result = services.submit_command(game=game.pk, user=seat.user, text=text, source="web")

    assert not callbacks and not mail.outbox
    assert [a.seqs for a in Announcement.objects.filter(game=game)] == [
        [m.seq for m in result.moves]
    ]
    assert announce_moves.apply().get() == 1
    assert not Announcement.objects.exists()
    waiting = game.seats.select_related("user").get(to_act=True).user
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    assert announce_moves.apply().get() == 0  # nothing left, nothing sent twice
    assert len(mail.outbox) == 1


def test_a_lapsed_claim_is_announced_again_and_emails_go_once(
    make_game, ada, bob, settings, django_capture_on_commit_callbacks
):
    """A worker claimed the announcement and died: the claim lapses and the next run
    announces it; the email rows make the second announcement send nothing twice."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Announcement
    from games.services import hooks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    game = make_game(ada, bob)
    Announcement.objects.exclude(change=Announcement.Change.MOVES).delete()  # (Bob joined)
    assert Announcement.objects.filter(game=game).exists()
    hooks._claim(10)  # ... and the worker died
    assert hooks.announce_pending() == 0  # the claim holds
    Announcement.objects.update(lease_until=timezone.now() - timedelta(seconds=1))
    assert hooks.announce_pending() == 1
    sent = len(mail.outbox)
    assert sent >= 1  # the game started: every seat told, the first to act its turn
    Announcement.objects.create(game=game, seqs=[0])  # announced twice
    assert hooks.announce_pending() == 1
    assert len(mail.outbox) == sent


def test_an_announcement_failing_for_good_is_given_up_kept_and_sent_again_by_staff(
    make_game, ada, bob, settings, client, django_user_model
):
    """A receiver that fails on an announcement is tried again at each lapse of the lease;
    failing ``ANNOUNCEMENT_GIVE_UP_HOURS`` after its first failure (and three times at
    least), the row is given up (no longer claimed) but kept, and staff who may change it
    send it again from the admin once the receiver is fixed."""
    from datetime import timedelta

    from django.contrib.auth.models import Permission
    from django.utils import timezone

    from games.models import Announcement
    from games.services import hooks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    game = make_game(ada, bob)
    Announcement.objects.exclude(change=Announcement.Change.MOVES).delete()  # (Bob joined)
    [row] = Announcement.objects.filter(game=game)
    hours = timedelta(hours=settings.ANNOUNCEMENT_GIVE_UP_HOURS + 1)

    def broken(**news: object) -> None:
        raise RuntimeError("receiver down")

    def lapse(**fields: object) -> None:
        Announcement.objects.update(lease_until=timezone.now() - timedelta(seconds=1), **fields)

    # Written long ago (a worker outage): one failure is not enough to give it up.
    Announcement.objects.update(created_at=timezone.now() - 2 * hours)
    hooks.moves_committed.connect(broken, dispatch_uid="test-broken")
    try:
        assert hooks.announce_pending() == 0
        row.refresh_from_db()
        assert (row.attempts, row.given_up_at) == (1, None) and row.failing_since is not None
        assert "receiver down" in row.last_error
        assert hooks.announce_pending() == 0  # the lease holds: not tried again at once
        lapse()
        assert hooks.announce_pending() == 0
        row.refresh_from_db()
        assert (row.attempts, row.given_up_at) == (2, None)

        lapse(failing_since=timezone.now() - hours)  # failing for longer than the delay
        assert hooks.announce_pending() == 0
        row.refresh_from_db()
        assert row.attempts == 3 and row.given_up_at is not None
        lapse()
        assert hooks.announce_pending() == 0
        row.refresh_from_db()
        assert row.attempts == 3  # given up: no longer claimed, still kept
    finally:
        hooks.moves_committed.disconnect(dispatch_uid="test-broken")

    # Staff who may only look see why, and cannot send it again.
    reader = django_user_model.objects.create_user("reader@example.org", "a-long-password-1")
    reader.is_staff = True
    reader.save()
    reader.user_permissions.add(Permission.objects.get(codename="view_announcement"))
    client.force_login(reader)
    listed = client.get("/admin/games/announcement/?given_up_at__isnull=False")
    assert listed.status_code == 200 and b"receiver down" in listed.content
    assert b"send_again" not in listed.content
    again = {"action": "send_again", "_selected_action": [row.pk]}
    client.post("/admin/games/announcement/", again)
    row.refresh_from_db()
    assert row.given_up_at is not None

    staff = django_user_model.objects.create_superuser("staff@example.org", "a-long-password-1")
    client.force_login(staff)
    sent = len(mail.outbox)
    answer = client.post("/admin/games/announcement/", again, follow=True)
    assert b"1 announcement(s) will be sent at the next run." in answer.content
    told: list[object] = []

    def fixed(**news: object) -> None:
        told.append(news["game_id"])

    hooks.moves_committed.connect(fixed, dispatch_uid="test-fixed")
    try:
        assert hooks.announce_pending() == 1
    finally:
        hooks.moves_committed.disconnect(dispatch_uid="test-fixed")
    assert told == [game.pk] and not Announcement.objects.filter(pk=row.pk).exists()
    assert len(mail.outbox) == sent  # (the emails went at the first try: none twice)


def test_a_game_that_fails_a_batch_is_retried_alone_and_the_others_go(
    make_game, ada, bob, cy, settings
):
    """A receiver's read for the whole batch fails because of one game: each game is then
    announced alone, so the others are not held back (nor, in time, given up) with it."""
    from games.models import Announcement
    from games.services import hooks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    bad, good = make_game(ada, bob), make_game(ada, cy)
    Announcement.objects.exclude(change=Announcement.Change.MOVES).delete()
    told: list[int] = []

    def picky(game_id: int, batch: hooks.Batch, **news: object) -> None:
        if bad.pk in batch.games:  # (a read of the batch that trips on the bad game)
            raise RuntimeError("bad game in the batch")
        told.append(game_id)

    hooks.moves_committed.connect(picky, dispatch_uid="test-picky")
    try:
        assert hooks.announce_pending() == 1
    finally:
        hooks.moves_committed.disconnect(dispatch_uid="test-picky")
    assert told == [good.pk]
    [left] = Announcement.objects.all()
    assert left.game_id == bad.pk and left.attempts == 1


def test_a_games_moves_are_announced_in_order_behind_a_failing_or_given_up_one(
    make_game, ada, bob, settings, client, django_user_model
):
    """A game's newer moves wait behind an older announcement that is out: failing under
    its lease, then given up; once staff send it again, every move goes out in order, in
    one announcement (before, a newer move went out alone while the older one waited: the
    players' event feed then had the moves out of order)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.engines.registry import get_engine
    from games.models import Announcement
    from games.services import hooks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    game = make_game(ada, bob)
    Announcement.objects.exclude(change=Announcement.Change.MOVES).delete()  # (Bob joined)
    told: list[list[int]] = []
    failing = [True]

    def receiver(game_id: int, seqs: list[int], **news: object) -> None:
        if failing[0]:
            raise RuntimeError("receiver down")
        told.append(seqs)

    def move() -> int:
        engine = get_engine(game.game_type)
        game.refresh_from_db()
        seat = game.seats.select_related("user").get(to_act=True)
        text = engine.format(engine.legal_commands(game.state, seat.order)[0])
        result = services.submit_command(game=game.pk, user=seat.user, text=text)
        return result.moves[-1].seq

    def lapse() -> None:
        Announcement.objects.filter(given_up_at__isnull=True).update(
            lease_until=timezone.now() - timedelta(seconds=1)
        )

    hooks.moves_committed.connect(receiver, dispatch_uid="test-order")
    try:
        assert hooks.announce_pending() == 0  # the start's row fails, its lease holds
        first = move()
        assert hooks.announce_pending() == 0  # the move waits behind it: not told alone
        assert Announcement.objects.get(seqs=[first]).lease_until is None
        assert told == []

        long_ago = timezone.now() - timedelta(hours=settings.ANNOUNCEMENT_GIVE_UP_HOURS + 1)
        Announcement.objects.update(failing_since=long_ago)
        for _ in range(hooks.GIVE_UP_AFTER - 1):  # lapsed: tried again, together
            lapse()
            assert hooks.announce_pending() == 0
        given_up = Announcement.objects.get(seqs=[0])
        assert given_up.given_up_at is not None
        held = Announcement.objects.get(seqs=[first])
        assert held.given_up_at is None  # (it failed with it, not yet as long)
        lapse()
        assert hooks.announce_pending() == 0  # behind the given-up start: given up, not tried
        behind = Announcement.objects.get(pk=held.pk)
        assert behind.given_up_at is not None and behind.last_error == hooks.BEHIND
        assert behind.attempts == held.attempts

        failing[0] = False  # the receiver is mended; a newer move goes behind too
        second = move()
        assert hooks.announce_pending() == 0 and told == []
        assert Announcement.objects.filter(given_up_at__isnull=True).count() == 0
        staff = django_user_model.objects.create_superuser("staff@example.org", "a-long-pw-1")
        client.force_login(staff)  # the admin says what the given-up row keeps back
        listed = client.get("/admin/games/announcement/").content.decode()
        column = re.findall(r'<t[dh] class="field-held">([^<]*)</t[dh]>', listed)
        assert sorted(column) == ["-", "-", "2"]
        assert hooks.send_again([given_up.pk]) == 3  # staff: the game's rows go together
        assert hooks.announce_pending() == 1
    finally:
        hooks.moves_committed.disconnect(dispatch_uid="test-order")
    assert told == [[0, first, second]]
    assert not Announcement.objects.exists()


def test_a_failing_table_change_does_not_hold_the_games_moves(make_game, ada, bob, settings):
    """Only moves wait behind moves: a change at the table that a receiver fails on (here
    a player who joined) keeps its own row, and the game's next move goes out."""
    from games.engines.registry import get_engine
    from games.models import Announcement
    from games.services import hooks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    game = make_game(ada, bob)
    Announcement.objects.filter(change=Announcement.Change.MOVES).delete()
    assert Announcement.objects.filter(change=Announcement.Change.JOINED).exists()
    told: list[list[int]] = []

    def broken(**news: object) -> None:
        raise RuntimeError("table receiver down")

    def moves(game_id: int, seqs: list[int], **news: object) -> None:
        told.append(seqs)

    engine = get_engine(game.game_type)
    seat = game.seats.select_related("user").get(to_act=True)
    text = engine.format(engine.legal_commands(game.state, seat.order)[0])
    hooks.table_changed.connect(broken, dispatch_uid="test-table-broken")
    hooks.moves_committed.connect(moves, dispatch_uid="test-moves")
    try:
        assert hooks.announce_pending() == 0  # the join fails, its lease holds
        played = services.submit_command(game=game.pk, user=seat.user, text=text)
        assert hooks.announce_pending() == 1
    finally:
        hooks.table_changed.disconnect(dispatch_uid="test-table-broken")
        hooks.moves_committed.disconnect(dispatch_uid="test-moves")
    assert told == [[m.seq for m in played.moves]]
    assert Announcement.objects.get().change == Announcement.Change.JOINED
