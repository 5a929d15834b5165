"""Vacation: a player who is away misses no deadline; the game waits for their return, up to
its ``vacation_days`` for each player."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games import selectors, services
from games.engines.registry import get_engine
from games.models import Game, Move, Seat

from .helpers import seat_to_act
from .test_timeouts import TWO_DECIDE

pytestmark = pytest.mark.django_db


def _away(seat: Seat, until: Any) -> None:
    assert seat.user is not None
    seat.user.away_until = until
    seat.user.save(update_fields=["away_until"])


def _deadline(game: Game) -> Any:
    game.refresh_from_db()
    assert game.deadline is not None
    return game.deadline


def test_an_away_player_misses_nothing_and_the_game_waits(make_game, ada, bob):
    game = make_game(ada, bob)
    late = seat_to_act(game)
    now = _deadline(game) + timedelta(minutes=1)
    back = now + timedelta(days=3)
    _away(late, back)
    version = game.version

    result = services.sweep(now=now)[0]

    assert (result.missed, result.away) == ([], [late.order])
    assert _deadline(game) == back + timedelta(hours=game.turn_hours)
    assert Game.objects.get(pk=game.pk).version == version  # nothing played for them
    late.refresh_from_db()
    assert (late.timeouts, late.vacation_used) == (0, timedelta(days=3))
    # The game view says so.
    view = selectors.game_view(game=game, user=ada)
    shown = {s["order"]: s["away_until"] for s in view["seats"]}
    assert shown[late.order] == back and set(shown.values()) == {back, None}
    # Back, and late again: an ordinary miss.
    services.sweep(now=_deadline(game) + timedelta(minutes=1))
    late.refresh_from_db()
    assert late.timeouts == 1


def test_a_game_waits_at_most_its_vacation_days(make_game, ada, bob):
    game = make_game(ada, bob, vacation_days=2)
    late = seat_to_act(game)
    now = _deadline(game) + timedelta(minutes=1)
    _away(late, now + timedelta(days=20))

    services.sweep(now=now)
    assert _deadline(game) == now + timedelta(days=2, hours=game.turn_hours)

    services.sweep(now=_deadline(game))  # still away, but the game's vacation is used up
    late.refresh_from_db()
    assert (late.timeouts, late.vacation_used) == (1, timedelta(days=2))
    assert Move.objects.filter(game=game, seat=late, source="system").count() == 1


def test_vacation_days_zero_never_waits(make_game, ada, bob):
    game = make_game(ada, bob, vacation_days=0)
    late = seat_to_act(game)
    now = _deadline(game) + timedelta(minutes=1)
    _away(late, now + timedelta(days=5))
    assert services.sweep(now=now)[0].missed == [late.order]


def test_a_vacation_that_is_over_changes_nothing(make_game, ada, bob):
    game = make_game(ada, bob)
    late = seat_to_act(game)
    now = _deadline(game) + timedelta(minutes=1)
    _away(late, now - timedelta(hours=1))
    assert services.sweep(now=now)[0].missed == [late.order]


def test_others_deciding_at_once_are_timed_out_and_the_game_waits_for_the_away_one(
    make_game, ada, bob, cy, games_may_be_tampered
):
    from games.engines.lords_of_vegas import from_position

    game = make_game(ada, bob, cy, game_type="lords-of-vegas")
    Game.objects.filter(pk=game.pk).update(state={**from_position(TWO_DECIDE), "seed": game.seed})
    now = _deadline(game) + timedelta(minutes=1)
    away, present = game.seats.get(order=1), game.seats.get(order=2)
    _away(away, now + timedelta(days=1))

    result = services.sweep(now=now)[0]

    assert (result.missed, result.away) == ([2], [1])
    game.refresh_from_db()
    assert game.state is not None and get_engine(game.game_type).to_act(game.state) == [1]
    assert game.deadline == now + timedelta(days=1, hours=game.turn_hours)
    away.refresh_from_db()
    present.refresh_from_db()
    assert (away.timeouts, present.timeouts) == (0, 1)
