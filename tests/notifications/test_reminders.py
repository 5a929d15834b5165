"""Reminders before a deadline: once per game version, only near it, never when off; and
at the right time after whatever moves a deadline or a lead time (the reminder run reads
only the seats due: ``Seat.remind_at``, issue 15). Time passes with time-machine, so the
deadlines are the ones the game itself set."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest
import time_machine
from django.core import mail

from accounts.models import User
from games.models import Game
from games.services import timeouts, tools
from notifications import services
from notifications.models import EmailPreference, Notification
from notifications.tasks import send_reminders
from tests.notifications.conftest import play, text_part

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)


@contextmanager
def _at(moment: datetime) -> Iterator[None]:
    with time_machine.travel(moment, tick=False):
        yield


def _before(game: Game, delta: timedelta) -> datetime:
    """The moment ``delta`` before the game's deadline (as it is now in the database)."""
    game.refresh_from_db()
    assert game.deadline is not None
    return game.deadline - delta


def _waiting(game: Game) -> User:
    user = game.seats.select_related("user").get(to_act=True).user
    assert user is not None
    return user


def _reminders(address: str) -> list[str]:
    return [str(m.subject) for m in mail.outbox if m.to == [address] and "Reminder" in m.subject]


def test_it_reminds_the_waiting_player_once_per_version(make_game, ada, bob, settings, smtp):
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)  # 72-hour turns
    user = _waiting(game)
    with _at(_before(game, 11 * H)):
        assert send_reminders() == 1
        assert send_reminders() == 0
    [message] = smtp.wait_for(1)
    assert message["To"] == user.email
    assert "Reminder: your turn" in message["Subject"]
    assert "is still waiting for you" in text_part(message)
    play(game, 1)  # a new version, a new deadline
    with _at(_before(game, 13 * H)):
        assert send_reminders() == 0
    with _at(_before(game, 1 * H)):
        assert send_reminders() == 1
    kinds = Notification.objects.filter(kind="reminder").values_list("version", flat=True)
    assert sorted(kinds) == [0, 1]


def test_not_while_the_deadline_is_far(make_game, ada, bob, settings):
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    with _at(_before(game, 13 * H)):
        assert send_reminders() == 0
    quick = make_game(ada, bob, turn_hours=4)  # the window: half the turn, 2 hours
    with _at(_before(quick, 3 * H)):
        assert send_reminders() == 0
    with _at(_before(quick, 90 * timedelta(minutes=1))):
        assert send_reminders() == 1
    assert len(mail.outbox) == 1


def test_not_past_the_deadline_nor_to_players_who_turned_reminders_off(make_game, ada, bob):
    late = make_game(ada, bob)
    with _at(_before(late, -timedelta(minutes=1))):
        assert services.send_reminders() == 0
    game = make_game(ada, bob)
    EmailPreference.objects.create(user=_waiting(game), reminders=False)
    with _at(_before(game, 1 * H)):
        assert services.send_reminders() == 0
    assert not mail.outbox


def test_not_to_bots(make_game, ada):
    game = make_game(ada, bots=2)
    with _at(_before(game, 1 * H)):
        sent = services.send_reminders()
    assert all(m.to == [ada.email] for m in mail.outbox)
    assert sent == len(mail.outbox) <= 1


def test_a_deadline_pushed_back_for_a_vacation_gets_its_own_reminder(
    make_game, ada, bob, settings, smtp
):
    """The timeout sweep moves the deadline of a player on vacation without a new version:
    near the new deadline the player is reminded again, not timed out without warning."""
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    user = _waiting(game)
    with _at(_before(game, 11 * H)):
        assert services.send_reminders() == 1
    version = Game.objects.get(pk=game.pk).version
    first = _before(game, timedelta(0))
    User.objects.filter(pk=user.pk).update(away_until=first + 5 * 24 * H)
    with _at(first + timedelta(minutes=1)):
        [result] = timeouts.sweep()
    assert result.away and not result.missed
    assert Game.objects.get(pk=game.pk).version == version  # no move: the same version
    later = _before(game, timedelta(0))
    assert later > first + 5 * 24 * H
    with _at(later - 13 * H):
        assert services.send_reminders() == 0  # far from the new deadline
    with _at(later - 1 * H):
        assert services.send_reminders() == 1
    with _at(later - timedelta(minutes=30)):
        assert services.send_reminders() == 0  # once
    messages = smtp.wait_for(2)
    assert [m["To"] for m in messages] == [user.email, user.email]
    assert all("Reminder: your turn" in m["Subject"] for m in messages)


def test_a_longer_lead_time_chosen_during_the_wait_is_kept(make_game, ada, bob, settings):
    """The run had set the player's next look at the server's 12 hours: choosing 24 hours
    afterwards brings the reminder forward to 24 hours before the deadline."""
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    user = _waiting(game)
    with _at(_before(game, 30 * H)):
        assert services.send_reminders() == 0  # (next look: 12 hours before)
        services.set_preferences(user=user, turn_emails=True, reminders=True, remind_before=[24])
    with _at(_before(game, 25 * H)):
        assert services.send_reminders() == 0
    with _at(_before(game, 24 * H)):
        assert services.send_reminders() == 1
    assert len(_reminders(user.email)) == 1


def test_reminders_turned_back_on_during_the_wait(make_game, ada, bob, settings):
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    user = _waiting(game)
    services.set_preferences(user=user, turn_emails=True, reminders=False)
    with _at(_before(game, 11 * H)):
        assert services.send_reminders() == 0
    with _at(_before(game, 10 * H)):
        services.set_preferences(user=user, turn_emails=True, reminders=True)
        assert services.send_reminders() == 1
    assert len(_reminders(user.email)) == 1


def test_a_paused_game_reminds_before_its_deadline_once_resumed(make_game, ada, bob, settings):
    """Paused 40 hours before its deadline, the game sends nothing; resumed three days
    later, its deadline is 40 hours away again, and the reminder comes 12 hours before."""
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    user = _waiting(game)
    paused_at = _before(game, 40 * H)
    with _at(paused_at):
        tools.pause_game(game=game.pk, by=ada, why="a break", authorized=True)
    for hours in (30, 60):
        with _at(paused_at + hours * H):
            assert services.send_reminders() == 0
    resumed_at = paused_at + 72 * H
    with _at(resumed_at):
        tools.resume_game(game=game.pk, by=ada, why="back", authorized=True)
    assert _before(game, timedelta(0)) == resumed_at + 40 * H
    with _at(resumed_at + 27 * H):
        assert services.send_reminders() == 0
    with _at(resumed_at + 29 * H):
        assert services.send_reminders() == 1
    assert len(_reminders(user.email)) == 1


def test_a_finished_game_reminds_no_one(make_game, ada, bob):
    game = make_game(ada, bob)
    deadline = _before(game, timedelta(0))
    play(game)  # to the end
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    # nothing left for the reminder run to look at (it reads only seats with a moment)
    assert not game.seats.filter(remind_at__isnull=False).exists()
    with _at(deadline - 1 * H):
        assert services.send_reminders() == 0
    assert not _reminders(ada.email) and not _reminders(bob.email)
