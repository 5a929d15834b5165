"""Vacation: a player who is away misses no deadline; the game waits for their return, up to
its ``vacation_days`` for each player."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import selectors, services
from games.engines.registry import get_engine
from games.models import Game, Move, Seat

from .helpers import legal_text, seat_to_act
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


def _swept_away(game: Game, days_ago: int, away_days: int) -> tuple[Seat, Any]:
    """The deadline passed ``days_ago`` days ago, while the seat to act was away for
    ``away_days`` days from then; the sweep of that moment. The seat and that moment."""
    late = seat_to_act(game)
    then = timezone.now() - timedelta(days=days_ago)
    Game.objects.filter(pk=game.pk).update(deadline=then - timedelta(minutes=1))
    _away(late, then + timedelta(days=away_days))
    assert services.sweep(now=then)[0].away == [late.order]
    late.refresh_from_db()
    return late, then


def test_a_player_back_early_is_charged_only_the_days_the_game_waited(make_game, ada, bob):
    game = make_game(ada, bob)
    late, then = _swept_away(game, days_ago=2, away_days=14)
    assert late.vacation_used == timedelta(days=14)  # the wait granted, paid up front...
    assert _deadline(game) == then + timedelta(days=14, hours=game.turn_hours)

    services.submit_command(game=game, user=late.user, text=legal_text(game))  # day 2: back

    late.refresh_from_db()  # ...and what the game did not wait given back
    assert abs(late.vacation_used - timedelta(days=2)) < timedelta(minutes=1)
    moved = timezone.now()
    assert moved < _deadline(game) <= moved + timedelta(hours=game.turn_hours)


def test_the_cap_still_counts_every_day_the_game_waited(make_game, ada, bob):
    game = make_game(ada, bob, vacation_days=3)
    late, _ = _swept_away(game, days_ago=1, away_days=20)
    assert late.vacation_used == timedelta(days=3)
    services.submit_command(game=game, user=late.user, text=legal_text(game))  # a move, still away
    late.refresh_from_db()
    assert abs(late.vacation_used - timedelta(days=1)) < timedelta(minutes=1)
    services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    assert seat_to_act(game) == late

    # Their turn again, still away: the game waits only the two days left...
    now = _deadline(game) + timedelta(minutes=1)
    left = timedelta(days=3) - late.vacation_used
    assert services.sweep(now=now)[0].away == [late.order]
    late.refresh_from_db()
    assert late.vacation_used == timedelta(days=3)
    assert _deadline(game) == now + left + timedelta(hours=game.turn_hours)
    # ...then times them out as if present.
    assert services.sweep(now=_deadline(game))[0].missed == [late.order]


def test_several_away_at_once_wait_until_the_first_is_back_and_pay_the_same(
    make_game, ada, bob, cy, games_may_be_tampered
):
    from games.engines.lords_of_vegas import from_position

    game = make_game(ada, bob, cy, game_type="lords-of-vegas")
    Game.objects.filter(pk=game.pk).update(state={**from_position(TWO_DECIDE), "seed": game.seed})
    now = _deadline(game) + timedelta(minutes=1)
    soon, later = game.seats.get(order=1), game.seats.get(order=2)
    _away(soon, now + timedelta(days=1))
    _away(later, now + timedelta(days=5))

    result = services.sweep(now=now)[0]

    assert (result.missed, result.away) == ([], [1, 2])
    assert _deadline(game) == now + timedelta(days=1, hours=game.turn_hours)
    soon.refresh_from_db()
    later.refresh_from_db()
    assert soon.vacation_used == later.vacation_used == timedelta(days=1)
