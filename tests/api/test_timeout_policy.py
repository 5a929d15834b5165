"""The timeout policy through the API: create-game options, the game view, and vacation
(``away_until``) in the profile."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from tests.api.helpers import Player, assert_error, body, start_game

pytestmark = pytest.mark.django_db


def test_a_game_keeps_the_policy_it_was_created_with(alice: Player, bob: Player) -> None:
    created = alice.post(
        "/games/",
        {"game_type": "vegas", "seats": 2, "turn_hours": 24, "max_timeouts": 0, "vacation_days": 5},
    )
    assert created.status_code == 201, created.content
    game = body(created)
    assert (game["turn_hours"], game["max_timeouts"], game["vacation_days"]) == (24, 0, 5)
    assert body(alice.get("/games/"))[0]["max_timeouts"] == 0


def test_the_defaults_are_three_misses_and_two_weeks(alice: Player) -> None:
    game = body(alice.post("/games/", {"game_type": "vegas"}))
    assert (game["turn_hours"], game["max_timeouts"], game["vacation_days"]) == (72, 3, 14)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("max_timeouts", -1, "greater than or equal to 0"),
        ("max_timeouts", 21, "less than or equal to 20"),
        ("max_timeouts", "often", "JSON integer"),
        ("vacation_days", 31, "less than or equal to 30"),
        ("vacation_days", None, "may not be null"),
    ],
)
def test_bad_policy_options_are_refused_and_no_game_is_written(
    alice: Player, field: str, value: object, says: str
) -> None:
    before = Game.objects.count()
    error = assert_error(alice.post("/games/", {"game_type": "vegas", field: value}), 400)
    assert field in error["message"] and says in error["message"], error
    assert Game.objects.count() == before


def test_the_service_refuses_bad_policy_values_too(alice: Player) -> None:
    before = Game.objects.count()
    with pytest.raises(
        services.InvalidRequest, match=r"Missed turns before a forfeit: 0 to 20, not 99\."
    ) as caught:
        services.create_game(creator=alice.user, game_type="vegas", max_timeouts=99)
    assert caught.value.code == "invalid_policy"
    with pytest.raises(services.InvalidRequest, match="vacation_days must be a whole number"):
        services.create_game(creator=alice.user, game_type="vegas", vacation_days=True)
    assert Game.objects.count() == before


def test_the_game_view_shows_each_seats_misses_and_who_is_away(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, [bob])
    game = Game.objects.get(pk=game_id)
    assert game.deadline is not None
    services.sweep(now=game.deadline + timedelta(minutes=1))
    back = timezone.now() + timedelta(days=2)
    assert bob.patch("/me/", {"away_until": back.isoformat()}).status_code == 200

    view = body(alice.get(f"/games/{game_id}/"))

    assert view["deadline"] and view["max_timeouts"] == 3
    seats = {s["user"]: s for s in view["seats"]}
    assert sum(s["timeouts"] for s in seats.values()) == 1
    assert sum(s["timeouts_in_a_row"] for s in seats.values()) == 1
    assert seats[bob.user.pk]["away_until"] is not None
    assert seats[alice.user.pk]["away_until"] is None


def test_a_player_sets_and_ends_a_vacation(alice: Player) -> None:
    back = (timezone.now() + timedelta(days=10)).replace(microsecond=0)
    answer = alice.patch("/me/", {"away_until": back.isoformat()})
    assert answer.status_code == 200, answer.content
    assert body(answer)["away_until"] is not None
    assert User.objects.get(pk=alice.user.pk).away_until == back

    ended = alice.patch("/me/", {"away_until": None})
    assert ended.status_code == 200 and body(ended)["away_until"] is None
    assert User.objects.get(pk=alice.user.pk).away_until is None


@pytest.mark.parametrize(
    ("offset", "says"),
    [(timedelta(hours=-1), "is in the past"), (timedelta(days=31), "more than 30 days ahead")],
)
def test_a_vacation_in_the_past_or_too_long_is_refused_and_nothing_changes(
    alice: Player, offset: timedelta, says: str
) -> None:
    before = timezone.now() + timedelta(days=1)
    User.objects.filter(pk=alice.user.pk).update(away_until=before, display_name="Alice")
    when = (timezone.now() + offset).isoformat()

    error = assert_error(alice.patch("/me/", {"away_until": when, "display_name": "Al"}), 400)

    assert error["code"] == "invalid" and "away_until" in error["message"]
    assert says in error["message"], error
    user = User.objects.get(pk=alice.user.pk)
    assert (user.away_until, user.display_name) == (before, "Alice")


def test_a_vacation_date_that_is_not_a_date_is_refused(alice: Player) -> None:
    error = assert_error(alice.patch("/me/", {"away_until": "next tuesday"}), 400)
    assert "away_until" in error["message"]
    assert User.objects.get(pk=alice.user.pk).away_until is None
