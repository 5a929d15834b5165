"""The game clocks (docs/decisions/0018-clocks-and-channels.md): the time-bank arithmetic,
the weekend pause (across DST changes, in the player's zone), a pause the players vote
for. Time is data: the arithmetic takes its instants, the games run under time-machine."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.clocks import (
    QuietHours,
    bank_after,
    cast_vote,
    deadline_after,
    out_of_quiet_hours,
    running_time,
)
from games.models import Game, Seat
from games.services.errors import InvalidRequest, NotAllowed
from games.services.tools import end_players_pause, pause_game, vote_pause, withdraw_pause_vote
from notifications.models import EmailPreference

from .helpers import legal_text, seat_to_act

PARIS = ZoneInfo("Europe/Paris")
H = timedelta(hours=1)
BANK = {"kind": "bank", "bank_hours": 72, "increment_hours": 24, "cap_hours": 100}


def paris(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=PARIS)


# -- the arithmetic --------------------------------------------------------------------------


def test_a_bank_pays_the_time_spent_and_earns_the_increment_up_to_the_cap():
    more = {"increment": 24 * H, "cap": 100 * H}
    assert bank_after(72 * H, 10 * H, turn_ended=True, **more) == 86 * H
    assert bank_after(72 * H, 10 * H, turn_ended=False, **more) == 62 * H  # mid-turn: no gain
    assert bank_after(90 * H, 1 * H, turn_ended=True, **more) == 100 * H  # capped
    assert bank_after(5 * H, 9 * H, turn_ended=True, **more) == 24 * H  # ran out: never < 0
    assert bank_after(120 * H, 0 * H, turn_ended=True, **more) == 120 * H  # above the cap stays


def test_the_weekend_does_not_count_and_a_dst_weekend_lasts_49_hours():
    friday, monday = paris(2026, 10, 23, 12), paris(2026, 10, 26, 12)  # summer time ends 25th
    assert monday.astimezone(UTC) - friday.astimezone(UTC) == 73 * H
    assert running_time(friday, monday, PARIS) == 24 * H
    assert running_time(friday, monday, None) == 73 * H
    assert deadline_after(friday, 24 * H, PARIS) == monday
    assert deadline_after(friday, 12 * H, PARIS) == paris(2026, 10, 24, 0)  # as it starts
    assert deadline_after(friday, 13 * H, PARIS) == paris(2026, 10, 26, 1)  # the hour after


def test_a_weekend_where_summer_time_starts_lasts_47_hours():
    friday = paris(2026, 3, 27, 18)  # summer time starts on Sunday 29 March
    assert deadline_after(friday, 30 * H, PARIS) == paris(2026, 3, 30, 0) + 24 * H
    assert running_time(paris(2026, 3, 28, 0), paris(2026, 3, 30, 0), PARIS) == timedelta(0)
    assert paris(2026, 3, 30, 0).astimezone(UTC) - paris(2026, 3, 28, 0).astimezone(UTC) == 47 * H


def test_a_clock_started_in_the_weekend_waits_for_monday():
    assert deadline_after(paris(2026, 11, 7, 15), 2 * H, PARIS) == paris(2026, 11, 9, 2)


def test_a_pause_needs_every_vote():
    assert cast_vote([], 0, [0, 1, 2]) == ([0], False)
    assert cast_vote([0, 2], 1, [0, 1, 2]) == ([0, 1, 2], True)
    assert cast_vote([0, 3], 1, [0, 1]) == ([0, 1], True)  # a seat gone (resigned) drops out


# -- in a game -------------------------------------------------------------------------------


def _move(game: Game) -> Seat:
    """The seat to act plays a legal command; that seat, as it is now."""
    seat = seat_to_act(game)
    services.submit_command(game=game, user=seat.user, text=legal_text(game))
    seat.refresh_from_db()
    return seat


@pytest.mark.django_db
def test_a_time_bank_game_charges_each_player_and_adds_the_increment(make_game, ada, bob):
    start = datetime(2026, 11, 2, 9, tzinfo=UTC)  # a Monday
    with time_machine.travel(start, tick=False) as clock:
        game = make_game(ada, bob, clock=BANK)
        assert game.deadline == start + 72 * H  # the first player's whole bank
        clock.shift(10 * H)
        first = _move(game)
        assert first.bank_left == 86 * H  # 72 - 10 + 24
        game.refresh_from_db()
        assert game.deadline == start + 10 * H + 72 * H  # the other's untouched bank
        clock.shift(1 * H)
        second = _move(game)
        assert second.bank_left == 95 * H
        third = _move(game)  # the first player again, at once: 86 + 24, capped at 100
        assert third == first and third.bank_left == 100 * H


@pytest.mark.django_db
def test_a_bank_that_runs_out_is_a_missed_turn_and_the_next_turn_has_the_increment(
    make_game, ada, bob
):
    start = datetime(2026, 11, 2, 9, tzinfo=UTC)
    with time_machine.travel(start, tick=False) as clock:
        game = make_game(ada, bob, clock=BANK)
        late = seat_to_act(game)
        clock.shift(73 * H)
        (result,) = services.sweep()
        assert result.missed == [late.order]
        late.refresh_from_db()
        assert late.bank_left == 24 * H and late.timeouts == 1


@pytest.mark.django_db
def test_the_weekend_pause_stops_the_clock_in_the_players_zone(make_game, make_user):
    parisian = make_user("pia", time_zone="Europe/Paris")
    other = make_user("olu", time_zone="Europe/Paris")
    friday = paris(2026, 10, 23, 12)
    with time_machine.travel(friday, tick=False):
        game = make_game(parisian, other, turn_hours=24, clock={"weekend_pause": True})
        assert game.deadline == paris(2026, 10, 26, 12)  # Monday noon, after a 49-hour weekend


@pytest.mark.django_db
def test_a_pause_all_players_vote_for_stops_the_clock_and_any_of_them_ends_it(
    make_game, ada, bob, cy
):
    start = datetime(2026, 11, 2, 9, tzinfo=UTC)
    with time_machine.travel(start, tick=False) as clock:
        game = make_game(ada, bob, cy, clock=BANK)
        assert vote_pause(game=game, by=ada) is None
        withdraw_pause_vote(game=game, by=ada)
        assert vote_pause(game=game, by=ada) is None
        assert vote_pause(game=game, by=bob) is None
        game.refresh_from_db()
        voted = sorted(game.seats.filter(user__in=[ada, bob]).values_list("order", flat=True))
        assert game.paused_at is None and game.pause_votes == voted
        clock.shift(2 * H)
        assert vote_pause(game=game, by=cy) is not None
        game.refresh_from_db()
        assert game.deadline is None and game.paused_left == 70 * H
        clock.shift(200 * H)
        assert services.sweep() == []  # nothing runs out while paused
        end_players_pause(game=game, by=bob)
        game.refresh_from_db()
        assert game.deadline == start + 202 * H + 70 * H
        clock.shift(1 * H)
        mover = _move(game)
        assert mover.bank_left == 72 * H - 3 * H + 24 * H  # the paused time is not charged


@pytest.mark.django_db
def test_players_do_not_end_a_staff_pause_and_strangers_do_not_vote(make_game, ada, bob, cy):
    staff = cy
    staff.is_staff = True
    staff.save()
    game = make_game(ada, bob)
    pause_game(game=game, by=staff, why="a dispute")
    with pytest.raises(InvalidRequest):
        end_players_pause(game=game, by=ada)
    with pytest.raises(NotAllowed):
        vote_pause(game=game, by=staff)  # not seated
    game.refresh_from_db()
    assert game.paused_at is not None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"kind": "sundial"}, "clock"),
        ({"kind": "bank", "increment_hours": 0}, "increment_hours"),
        ({"kind": "bank", "bank_hours": 100, "cap_hours": 50}, "cap_hours"),
        ({"weekend_pause": "yes"}, "weekend_pause"),
        ({"speed": 2}, "clock"),
    ],
)
def test_bad_clock_settings_are_refused_and_no_game_is_made(ada, clock: Any, field: str):
    with pytest.raises(InvalidRequest) as refused:
        services.create_game(creator=ada, game_type="vegas", seats=2, clock=clock)
    assert refused.value.extra["field"] == field
    assert not Game.objects.exists()


# -- quiet hours: no deadline while the player sleeps ---------------------------------------


def test_a_deadline_in_quiet_hours_moves_to_their_end_across_midnight_and_dst():
    quiet = QuietHours(time(22), time(7), PARIS)
    assert out_of_quiet_hours(paris(2026, 11, 10, 2), [quiet]) == paris(2026, 11, 10, 7)
    assert out_of_quiet_hours(paris(2026, 11, 10, 23), [quiet]) == paris(2026, 11, 11, 7)
    assert out_of_quiet_hours(paris(2026, 11, 10, 12), [quiet]) == paris(2026, 11, 10, 12)
    # the night summer time ends (25 Oct 2026): 07:00 is 06:00 UTC, nine real hours later
    night = paris(2026, 10, 24, 23)
    assert out_of_quiet_hours(night, [quiet]) == datetime(2026, 10, 25, 6, tzinfo=UTC)
    # two sleepers: pushed out of the one, then out of the other's
    late = QuietHours(time(6), time(9), ZoneInfo("Europe/London"))  # 07:00 to 10:00 in Paris
    assert out_of_quiet_hours(paris(2026, 11, 10, 2), [quiet, late]) == paris(2026, 11, 10, 10)


def _sleeper(make_user: Any, name: str) -> Any:
    user = make_user(name, time_zone="Europe/Paris")
    EmailPreference.objects.create(user=user, quiet_from=time(22), quiet_until=time(7))
    return user


@pytest.mark.django_db
def test_a_deadline_that_would_fall_at_2am_for_the_player_waited_on_falls_at_7(
    make_game, make_user
):
    pia, olu = _sleeper(make_user, "pia"), _sleeper(make_user, "olu")
    start = paris(2026, 11, 9, 2)  # a Monday, 02:00 in Paris; a day's turn ends at 02:00
    with time_machine.travel(start, tick=False) as clock:
        game = make_game(pia, olu, turn_hours=24)
        assert game.deadline == paris(2026, 11, 10, 7)
        clock.shift(20 * H)  # 22:00: the next wait's day ends at 22:00, as quiet hours begin
        _move(game)
        game.refresh_from_db()
        assert game.deadline == paris(2026, 11, 11, 7)  # across midnight


@pytest.mark.django_db
def test_a_move_learns_the_quiet_hours_with_the_game_it_locks(make_game, make_user):
    """The players' email choices come with the game's locked read (one round trip), not
    from a query of their own; a player without choices has none."""
    pia, olu = _sleeper(make_user, "pia"), make_user("olu", time_zone="Europe/Paris")
    with time_machine.travel(paris(2026, 11, 9, 2), tick=False) as clock:
        game = make_game(pia, olu, turn_hours=24)
        clock.shift(20 * H)  # 22:00 in Paris
        for _ in range(2):  # each waits on the other: a sleeper, then one without choices
            waited_on = seat_to_act(game).user
            with CaptureQueriesContext(connection) as queries:
                _move(game)
            game.refresh_from_db()
            alone = [
                q["sql"] for q in queries if 'FROM "notifications_emailpreference"' in q["sql"]
            ]
            assert alone == []
        # the last wait is on the one without quiet hours: a plain day
        assert waited_on != seat_to_act(game).user
        wait_of = {pia.pk: paris(2026, 11, 11, 7), olu.pk: paris(2026, 11, 10, 22)}
        assert game.deadline == wait_of[seat_to_act(game).user_id]


@pytest.mark.django_db
def test_quiet_hours_keep_a_deadline_at_7_across_the_night_summer_time_ends(make_game, make_user):
    pia, olu = _sleeper(make_user, "pia"), _sleeper(make_user, "olu")
    start = datetime(2026, 10, 24, 0, tzinfo=UTC)  # 02:00 in Paris (summer time) on Saturday
    with time_machine.travel(start, tick=False):
        game = make_game(pia, olu, clock=BANK)  # 72 hours: 01:00 Tuesday in Paris (winter)
        assert game.deadline == paris(2026, 10, 27, 7) == datetime(2026, 10, 27, 6, tzinfo=UTC)


@pytest.mark.django_db
def test_a_deadline_outside_quiet_hours_and_without_them_is_as_before(make_game, make_user, ada):
    pia = _sleeper(make_user, "pia")
    start = paris(2026, 11, 9, 12)
    with time_machine.travel(start, tick=False):
        assert make_game(pia, ada, turn_hours=24).deadline == paris(2026, 11, 10, 12)
    with time_machine.travel(paris(2026, 11, 9, 2), tick=False):
        game = make_game(ada, pia, turn_hours=24)
        waiting_on_ada = seat_to_act(game).user == ada
        expected = paris(2026, 11, 10, 2) if waiting_on_ada else paris(2026, 11, 10, 7)
        assert game.deadline == expected  # only the quiet hours of the player waited on
