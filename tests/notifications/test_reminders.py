"""Reminders before a deadline: once per game version, only near it, never when off."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game
from notifications import services
from notifications.models import EmailPreference, Notification
from notifications.tasks import send_reminders
from tests.notifications.conftest import play, text_part

pytestmark = pytest.mark.django_db


def _due_in(game: Game, delta: timedelta) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + delta)


def _waiting(game: Game):
    return game.seats.select_related("user").get(to_act=True).user


def test_it_reminds_the_waiting_player_once_per_version(make_game, ada, bob, settings, smtp):
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)  # 72-hour turns
    user = _waiting(game)
    _due_in(game, timedelta(hours=11))
    assert send_reminders() == 1
    assert send_reminders() == 0
    [message] = smtp.wait_for(1)
    assert message["To"] == user.email
    assert "Reminder: your turn" in message["Subject"]
    assert "is still waiting for you" in text_part(message)
    play(game, 1)  # a new version, a new deadline
    _due_in(game, timedelta(hours=1))
    assert send_reminders() == 1
    kinds = Notification.objects.filter(kind="reminder").values_list("version", flat=True)
    assert sorted(kinds) == [0, 1]


def test_not_while_the_deadline_is_far(make_game, ada, bob, settings):
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    _due_in(game, timedelta(hours=13))
    assert send_reminders() == 0
    quick = make_game(ada, bob, turn_hours=4)  # the window: half the turn, 2 hours
    _due_in(quick, timedelta(hours=3))
    assert send_reminders() == 0
    _due_in(quick, timedelta(hours=1, minutes=30))
    assert send_reminders() == 1
    assert len(mail.outbox) == 1


def test_not_past_the_deadline_nor_to_players_who_turned_reminders_off(make_game, ada, bob):
    game = make_game(ada, bob)
    _due_in(game, -timedelta(minutes=1))
    assert services.send_reminders() == 0
    _due_in(game, timedelta(hours=1))
    EmailPreference.objects.create(user=_waiting(game), reminders=False)
    assert services.send_reminders() == 0
    assert not mail.outbox


def test_not_to_bots(make_game, ada):
    game = make_game(ada, bots=2)
    game.refresh_from_db()
    _due_in(game, timedelta(hours=1))
    sent = services.send_reminders()
    assert all(m.to == [ada.email] for m in mail.outbox)
    assert sent == len(mail.outbox) <= 1


def test_a_deadline_pushed_back_without_a_new_version_gets_its_own_reminder(
    make_game, ada, bob, settings, smtp
):
    """The timeout sweep moves the deadline of a player on vacation without a new version:
    near the new deadline the player is reminded again, not timed out without warning."""
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    user = _waiting(game)
    now = timezone.now()
    _due_in(game, timedelta(hours=11))
    assert services.send_reminders(now=now) == 1
    version = Game.objects.get(pk=game.pk).version
    later = now + timedelta(days=5)
    Game.objects.filter(pk=game.pk).update(deadline=later)  # as the sweep does
    assert Game.objects.get(pk=game.pk).version == version
    assert services.send_reminders(now=now) == 0  # far from the new deadline
    assert services.send_reminders(now=later - timedelta(hours=1)) == 1
    assert services.send_reminders(now=later - timedelta(minutes=30)) == 0  # once
    messages = smtp.wait_for(2)
    assert [m["To"] for m in messages] == [user.email, user.email]
    assert all("Reminder: your turn" in m["Subject"] for m in messages)
