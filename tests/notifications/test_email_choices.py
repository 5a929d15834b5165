"""What each player chooses about game email, on a controlled clock (time-machine): quiet
hours (across midnight, across a daylight-saving change), the digest hour in several zones,
reminders at the player's own lead times, muted games."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail

from games import services as game_services
from games.models import Game, Seat
from notifications import services
from notifications.choices import next_digest, quiet_end
from notifications.digest import run_digests
from notifications.models import EmailPreference, Notification

pytestmark = pytest.mark.django_db
H = timedelta(hours=1)


def _utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def _waiting_seat(game: Game) -> Seat:
    return game.seats.select_related("user").get(to_act=True)


def _quiet(user: Any, start: str, end: str, **more: Any) -> None:
    services.set_preferences(
        user=user,
        turn_emails=True,
        reminders=True,
        quiet_from=time.fromisoformat(start),
        quiet_until=time.fromisoformat(end),
        **more,
    )


# -- quiet hours -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "end"),
    [
        (_utc(2026, 11, 23, 22, 30), _utc(2026, 11, 24, 6)),  # 23:30 Paris: tomorrow 07:00
        (_utc(2026, 11, 24, 3), _utc(2026, 11, 24, 6)),  # 04:00 Paris: today 07:00
        (_utc(2026, 11, 24, 6), None),  # 07:00 Paris: over
        (_utc(2026, 11, 24, 12), None),  # noon
        (_utc(2026, 11, 23, 21), _utc(2026, 11, 24, 6)),  # 22:00 Paris: it begins
        # The night the clocks go back (25 Oct 2026, 03:00 CEST -> 02:00 CET): 07:00 is
        # 06:00 UTC, not 05:00.
        (_utc(2026, 10, 24, 21), _utc(2026, 10, 25, 6)),
        # The night they go forward (29 Mar 2026, 02:00 CET -> 03:00 CEST): 07:00 is 05:00.
        (_utc(2026, 3, 28, 22), _utc(2026, 3, 29, 5)),
    ],
)
def test_quiet_hours_across_midnight_and_daylight_saving(ada, now, end):
    pref = EmailPreference(user=ada, quiet_from=time(22), quiet_until=time(7))
    assert quiet_end(pref, "Europe/Paris", now) == end


def test_quiet_hours_within_a_day(ada):
    pref = EmailPreference(user=ada, quiet_from=time(13), quiet_until=time(15))
    assert quiet_end(pref, "UTC", _utc(2026, 11, 24, 14)) == _utc(2026, 11, 24, 15)
    assert quiet_end(pref, "UTC", _utc(2026, 11, 24, 15)) is None
    assert quiet_end(EmailPreference(user=ada), "UTC", _utc(2026, 11, 24, 14)) is None


def test_a_turn_email_in_quiet_hours_waits_for_the_morning(make_game, make_user, smtp):
    ada = make_user("ada", time_zone="Europe/Paris")
    bob = make_user("bob", time_zone="Europe/Paris")
    for user in (ada, bob):
        _quiet(user, "22:00", "07:00")
    with time_machine.travel(_utc(2026, 11, 23, 22, 30), tick=False) as clock:  # 23:30 Paris
        game = make_game(ada, bob)
        seat = _waiting_seat(game)
        assert services.notify_game(game_id=game.pk) == 0  # (the move's announcement)
        note = Notification.objects.get(user=seat.user, kind="turn")
        assert note.status == "waiting" and note.subject  # stored, not sent
        assert note.due_at == _utc(2026, 11, 24, 6)  # 07:00 in Paris
        assert smtp.wait_for(1, timeout=0.5) == []
        services.notify_game(game_id=game.pk)  # another announcement: still waiting
        assert services.send_due() == 0
        clock.move_to(_utc(2026, 11, 24, 5, 59))
        assert services.send_due() == 0
        clock.move_to(_utc(2026, 11, 24, 6))
        assert services.send_due() == 1
    [message] = smtp.wait_for(1)
    assert message["To"] == seat.user.email  # type: ignore[union-attr]
    assert "Your turn" in message["Subject"]
    note.refresh_from_db()
    assert note.status == "sent" and note.message_id == message["Message-ID"]


def _reminder_due(game: Game, deadline: datetime, now: datetime) -> Seat:
    """The waiting seat of ``game``, its deadline ``deadline``, its reminder due ``now``."""
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    seat = _waiting_seat(game)
    Seat.objects.filter(pk=seat.pk).update(remind_at=now)
    return seat


def _paris_players(make_user, lead: int) -> tuple[Any, Any]:
    """Ada and Bob in Paris, quiet from 22:00 to 07:00, reminded ``lead`` hours ahead."""
    ada, bob = (make_user(name, time_zone="Europe/Paris") for name in ("ada", "bob"))
    for user in (ada, bob):
        _quiet(user, "22:00", "07:00", remind_before=[lead])
    return ada, bob


def test_a_reminder_quiet_hours_would_hold_until_its_deadline_is_not_sent(
    make_game, make_user, smtp
):
    """A deadline is moved out of the player's quiet hours, often to their very end: a
    reminder due inside them would come with the deadline, or after the server played."""
    ada, bob = _paris_players(make_user, 2)
    with time_machine.travel(_utc(2026, 11, 24, 4), tick=False) as clock:  # 05:00 Paris
        game = make_game(ada, bob)
        _reminder_due(game, deadline=_utc(2026, 11, 24, 6), now=_utc(2026, 11, 24, 4))
        assert services.send_reminders() == 0
        assert Notification.objects.get(kind="reminder").status == "dropped"
        clock.move_to(_utc(2026, 11, 24, 6))  # 07:00 Paris: quiet hours over
        assert services.send_due() == 0
    assert smtp.wait_for(1, timeout=0.5) == []


@pytest.mark.parametrize("ended", [False, True])
def test_a_held_reminder_goes_in_the_morning_only_if_still_true(make_game, make_user, smtp, ended):
    """Held through the night, a reminder goes at the end of the quiet hours if the game
    still waits on the player; not if the other player resigned in the night and the game
    ended (it came after the game-over email)."""
    ada, bob = _paris_players(make_user, 12)
    with time_machine.travel(_utc(2026, 11, 23, 23), tick=False) as clock:  # midnight, Paris
        game = make_game(ada, bob)
        seat = _reminder_due(game, deadline=_utc(2026, 11, 24, 11), now=_utc(2026, 11, 23, 23))
        assert services.send_reminders() == 0
        note = Notification.objects.get(kind="reminder")
        assert note.status == "waiting" and note.due_at == _utc(2026, 11, 24, 6)
        if ended:
            other = game.seats.exclude(pk=seat.pk).select_related("user").get()
            game_services.resign(game=game, user=other.user)
        clock.move_to(_utc(2026, 11, 24, 6))
        assert services.send_due() == (0 if ended else 1)
    note.refresh_from_db()
    if ended:
        assert note.status == "dropped"
        assert smtp.wait_for(1, timeout=0.5) == []
    else:
        [message] = smtp.wait_for(1)
        assert message["To"] == seat.user.email  # type: ignore[union-attr]


# -- the digest hour -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "hour", "now", "due"),
    [
        ("Europe/Paris", 8, _utc(2026, 11, 23, 6), _utc(2026, 11, 23, 7)),
        ("America/New_York", 8, _utc(2026, 11, 23, 6), _utc(2026, 11, 23, 13)),
        ("Asia/Tokyo", 16, _utc(2026, 11, 23, 6), _utc(2026, 11, 23, 7)),
        ("Asia/Kolkata", 9, _utc(2026, 11, 23, 6), _utc(2026, 11, 24, 3, 30)),
        # Paris, 08:00 on both sides of the October change: 06:00 UTC, then 07:00 UTC.
        ("Europe/Paris", 8, _utc(2026, 10, 24, 5), _utc(2026, 10, 24, 6)),
        ("Europe/Paris", 8, _utc(2026, 10, 24, 6), _utc(2026, 10, 25, 7)),
    ],
)
def test_the_next_digest_is_at_the_players_hour_in_their_zone(zone, hour, now, due):
    assert next_digest(hour, zone, now) == due


def test_the_hourly_run_sends_to_the_players_whose_hour_it_is(make_game, make_user, smtp):
    players = {
        "paris": ("Europe/Paris", 8),  # 07:00 UTC
        "tokyo": ("Asia/Tokyo", 16),  # 07:00 UTC
        "newyork": ("America/New_York", 8),  # 13:00 UTC
    }
    with time_machine.travel(_utc(2026, 11, 23, 6, 10), tick=False) as clock:
        users = {}
        for name, (zone, hour) in players.items():
            user = users[name] = make_user(name, time_zone=zone)
            services.set_preferences(
                user=user, turn_emails=True, reminders=True, digest=True, digest_hour=hour
            )
            game = make_game(user, bots=1)
            assert Seat.objects.get(game=game, user=user).to_act
            assert services.notify_game(game_id=game.pk) == 0
        assert not Notification.objects.filter(kind="turn").exists()  # they wait for it
        assert run_digests() == 0
        clock.move_to(_utc(2026, 11, 23, 7))
        assert run_digests() == 2
        assert run_digests() == 0  # once a day
        got = {m["To"] for m in smtp.wait_for(2)}
        assert got == {users["paris"].email, users["tokyo"].email}
        clock.move_to(_utc(2026, 11, 23, 13))
        assert run_digests() == 1
        assert smtp.wait_for(3)[-1]["To"] == users["newyork"].email
        clock.move_to(_utc(2026, 11, 24, 7))  # the next day: again
        assert run_digests() == 2
    pref = EmailPreference.objects.get(user=users["paris"])
    assert pref.digest_at == _utc(2026, 11, 25, 7)


def test_nothing_waiting_no_digest_but_the_next_day_is_set(make_user, make_game):
    ada = make_user("ada", time_zone="UTC")
    with time_machine.travel(_utc(2026, 11, 23, 7, 30), tick=False) as clock:
        services.set_preferences(
            user=ada, turn_emails=True, reminders=True, digest=True, digest_hour=8
        )
        clock.move_to(_utc(2026, 11, 23, 8))
        assert run_digests() == 0
        assert not mail.outbox
        assert EmailPreference.objects.get(user=ada).digest_at == _utc(2026, 11, 24, 8)


# -- reminders at the player's lead times ----------------------------------------------------


def test_reminders_at_the_players_own_lead_times(make_game, ada, bob, smtp):
    start = _utc(2026, 11, 23, 9)
    with time_machine.travel(start, tick=False) as clock:
        game = make_game(ada, bob)  # 72-hour turns: the deadline is start + 72 h
        user = _waiting_seat(game).user
        services.set_preferences(user=user, turn_emails=True, reminders=True, remind_before=[24, 2])
        assert game.deadline == start + 72 * H
        clock.move_to(game.deadline - 25 * H)
        assert services.send_reminders() == 0
        clock.move_to(game.deadline - 24 * H)
        assert services.send_reminders() == 1
        assert services.send_reminders() == 0
        clock.move_to(game.deadline - 3 * H)
        assert services.send_reminders() == 0
        clock.move_to(game.deadline - 2 * H)
        assert services.send_reminders() == 1
    keys = sorted(Notification.objects.filter(kind="reminder").values_list("key", flat=True))
    stamp = int(game.deadline.timestamp())
    assert keys == [f"v0-{stamp}-2", f"v0-{stamp}-24"]
    reminders = [m for m in smtp.wait_for(3) if "Reminder" in m["Subject"]]
    assert [m["To"] for m in reminders] == [user.email, user.email]  # type: ignore[union-attr]


def test_two_lead_times_reached_at_once_send_one_reminder(make_game, ada, bob):
    game = make_game(ada, bob)
    user = _waiting_seat(game).user
    services.set_preferences(user=user, turn_emails=True, reminders=True, remind_before=[24, 2])
    mail.outbox.clear()
    with time_machine.travel(game.deadline - 1 * H, tick=False):  # 1 h left
        assert services.send_reminders() == 1
        assert services.send_reminders() == 0


def test_the_server_default_for_a_player_who_chose_none(make_game, ada, bob, settings):
    settings.NOTIFICATIONS_REMIND_BEFORE_HOURS = 12
    game = make_game(ada, bob)
    mail.outbox.clear()
    with time_machine.travel(game.deadline - 11 * H, tick=False):  # 11 h left
        assert services.send_reminders() == 1


# -- muted games -----------------------------------------------------------------------------


def test_a_muted_game_sends_nothing_and_leaves_the_digest(make_game, make_user):
    ada = make_user("ada", time_zone="UTC")
    muted, kept = make_game(ada, bots=1), make_game(ada, bots=1)
    services.set_preferences(user=ada, turn_emails=True, reminders=True, muted=[muted.pk])
    mail.outbox.clear()
    Notification.objects.all().delete()
    assert services.notify_game(game_id=muted.pk) == 0
    assert services.notify_game(game_id=kept.pk) == 1
    with time_machine.travel(kept.deadline - 1 * H, tick=False):  # both 1 h from it
        assert services.send_reminders() == 1
    assert {n.game_id for n in Notification.objects.all()} == {kept.pk}
    from notifications.digest import waiting_seats

    assert [s.game_id for s in waiting_seats(ada)] == [kept.pk]


def test_a_new_time_zone_moves_the_next_digest_to_its_hour(make_user, make_game):
    ada = make_user("ada", time_zone="Europe/Paris")
    with time_machine.travel(_utc(2026, 11, 23, 5), tick=False) as clock:
        make_game(ada, bots=1)
        services.set_preferences(
            user=ada, turn_emails=True, reminders=True, digest=True, digest_hour=8
        )
        assert EmailPreference.objects.get(user=ada).digest_at == _utc(2026, 11, 23, 7)
        ada.time_zone = "America/New_York"  # (through the API, without the email choices)
        ada.save()
        clock.move_to(_utc(2026, 11, 23, 7))
        assert run_digests() == 0  # not at 08:00 in Paris any more
        assert EmailPreference.objects.get(user=ada).digest_at == _utc(2026, 11, 23, 13)
        clock.move_to(_utc(2026, 11, 23, 13))
        assert run_digests() == 1


def test_a_zone_changed_through_the_api_moves_the_next_digest_at_once(make_user, make_game, client):
    """Play-testing: Paris -> Tokyo through the API (without the email choices) left the next
    digest at 08:00 in Paris, which the hourly run then moved to the following 08:00 in
    Tokyo: no digest for 40 hours. The settings page set it at once; the API does too."""
    ada = make_user("ada", time_zone="Europe/Paris")
    with time_machine.travel(_utc(2026, 11, 23, 10), tick=False) as clock:
        make_game(ada, bots=1)
        services.set_preferences(
            user=ada, turn_emails=True, reminders=True, digest=True, digest_hour=8
        )
        assert EmailPreference.objects.get(user=ada).digest_at == _utc(2026, 11, 24, 7)
        client.force_login(ada)
        body = {"time_zone": "Asia/Tokyo"}
        response = client.patch("/api/v1/me/", body, content_type="application/json")
        assert response.status_code == 200, response.content
        clock.move_to(_utc(2026, 11, 23, 23))  # 08:00 on the 24th in Tokyo
        assert run_digests() == 1
        assert EmailPreference.objects.get(user=ada).digest_at == _utc(2026, 11, 24, 23)
