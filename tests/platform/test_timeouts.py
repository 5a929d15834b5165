"""A missed deadline: the sweep plays the engine's default command for the late seat, counts
the miss, and after ``max_timeouts`` misses in a row the player forfeits. Time is data:
every sweep is given its ``now``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engines.registry import get_engine
from games.models import Game, Move, Seat
from tests.engines.lords_of_vegas.test_turn_marker import TWO_DECIDE

from .helpers import legal_text, seat_to_act

pytestmark = pytest.mark.django_db


def _past_deadline(game: Game, by: timedelta = timedelta(minutes=1)) -> Any:
    game.refresh_from_db()
    assert game.deadline is not None
    return game.deadline + by


def _miss(game: Game) -> Seat:
    """Let the deadline pass: the seat that was to act, as it is after the sweep."""
    late = seat_to_act(game)
    applied = services.sweep(now=_past_deadline(game))
    assert [r.game_id for r in applied] == [game.pk]
    late.refresh_from_db()
    return late


def test_the_sweep_plays_the_default_command_for_the_late_seat(make_game, ada, bob):
    game = make_game(ada, bob)
    late = seat_to_act(game)
    engine = get_engine(game.game_type)
    assert game.state is not None
    expected = engine.format(engine.default_command(game.state, late.order))
    version, now = game.version, _past_deadline(game)

    results = services.sweep(now=now)

    game.refresh_from_db()
    move = Move.objects.get(game=game, seq=version + 1)
    assert (move.seat, move.source, move.text) == (late, "system", expected)
    assert results[0].missed == [late.order] and results[0].moves[0] == move
    late.refresh_from_db()
    assert (late.timeouts, late.timeouts_in_a_row) == (1, 1)
    assert game.deadline == now + timedelta(hours=game.turn_hours)
    assert seat_to_act(game) != late
    assert services.verify_game(game=game).ok


def test_a_game_before_its_deadline_is_left_alone(make_game, ada, bob):
    game = make_game(ada, bob)
    assert services.sweep(now=_past_deadline(game, -timedelta(minutes=1))) == []
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_players_own_move_ends_the_run_but_keeps_the_total(make_game, ada, bob):
    game = make_game(ada, bob)
    first = _miss(game)
    _miss(game)  # the other player's turn runs out too
    assert seat_to_act(game) == first
    services.submit_command(game=game, user=first.user, text=legal_text(game))
    first.refresh_from_db()
    assert (first.timeouts, first.timeouts_in_a_row) == (1, 0)
    view = services.export_game(game=game)
    assert {p["timeouts"] for p in view["players"]} == {1}


def test_max_timeouts_misses_in_a_row_forfeit_the_game(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy, max_timeouts=2)
    quitter = seat_to_act(game)
    while True:
        late = _miss(game)
        if late.resigned:
            break
        if late != quitter:  # the others play their own turns
            continue
        while seat_to_act(game) != quitter:
            services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    assert late == quitter and late.timeouts == 2 and late.bot == "greedy"
    resignation = Move.objects.get(game=game, seat=late, command__isnull=True)
    assert resignation.events == [{"type": "resign", "seat": late.order, "reason": "timeouts"}]
    # a bot plays the seat on, and the player ranks last at the end
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=seat_to_act(game).user, text=legal_text(game))
    assert Move.objects.filter(game=game, seat=late, source="bot").exists()
    assert game.outcome["placings"][-1]["seat"] == late.order
    assert game.outcome["placings"][-1]["resigned"]


def test_at_two_players_a_forfeit_ends_the_game(make_game, ada, bob):
    game = make_game(ada, bob, max_timeouts=1)
    late = _miss(game)
    game.refresh_from_db()
    assert late.resigned and game.status == Game.Status.FINISHED
    assert game.outcome["ended_by"] == "resignation"
    assert game.outcome["placings"][-1]["seat"] == late.order


def test_max_timeouts_zero_never_forfeits(make_game, ada, bob):
    game = make_game(ada, bob, max_timeouts=0)
    for _ in range(8):
        _miss(game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not game.seats.filter(resigned=True).exists()
    assert sum(game.seats.values_list("timeouts", flat=True)) == 8
    assert services.verify_game(game=game).ok


def test_a_finished_game_has_nothing_to_time_out(make_game, ada, bob):
    finished = make_game(ada, bob)
    services.resign(game=finished, user=bob)
    against_a_bot = make_game(ada, bots=1)
    services.resign(game=against_a_bot, user=ada)  # the game ends: one person left
    assert services.sweep(now=timezone.now() + timedelta(days=60)) == []
    assert not Seat.objects.filter(timeouts__gt=0).exists()


def test_a_finished_game_is_not_timed_out_even_with_a_deadline_left_behind(make_game, ada, bob):
    # Finished, with a state and a past deadline: only the status check stops the timeout.
    game = make_game(ada, bob)
    services.resign(game=game, user=bob)
    past = timezone.now() - timedelta(days=1)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state is not None
    version = game.version

    result = services.apply_timeout(game=game.pk)

    assert (result.applied, result.missed, result.moves) == (False, [], [])
    game.refresh_from_db()
    assert (game.version, game.status, game.deadline) == (version, Game.Status.FINISHED, past)
    assert not Seat.objects.filter(game=game, timeouts__gt=0).exists()


def test_every_late_seat_of_a_simultaneous_decision_is_handled(
    make_game, ada, bob, cy, games_may_be_tampered
):
    from games.engines.lords_of_vegas import from_position

    game = make_game(ada, bob, cy, game_type="lords-of-vegas")
    engine = get_engine(game.game_type)
    # A position where Yellow and Blue both place rerolled dice (after Red reorganized).
    state = {**from_position(TWO_DECIDE), "seed": game.seed}
    Game.objects.filter(pk=game.pk).update(state=state)
    assert engine.to_act(state) == [1, 2]

    result = services.sweep(now=_past_deadline(game))[0]

    assert result.missed == [1, 2]
    for order in (1, 2):
        seat = game.seats.get(order=order)
        assert (seat.timeouts, seat.timeouts_in_a_row) == (1, 1)
        move = Move.objects.get(game=game, seat=seat, source="system")
        assert move.text.startswith("place ")
    game.refresh_from_db()
    assert game.state is not None and engine.to_act(game.state) == [0]
    assert game.seats.get(order=0).timeouts == 0


def test_one_failing_game_does_not_stop_the_sweep(make_game, ada, bob):
    broken, fine = make_game(ada, bob), make_game(ada, bob)
    Game.objects.filter(pk=broken.pk).update(game_type="no-such-game")
    now = max(_past_deadline(broken), _past_deadline(fine))
    assert [r.game_id for r in services.sweep(now=now)] == [fine.pk]
    Game.objects.filter(pk=broken.pk).update(game_type=fine.game_type)


def test_sweeping_twice_applies_the_timeout_once(make_game, ada, bob):
    game = make_game(ada, bob)
    now = _past_deadline(game)
    assert len(services.sweep(now=now)) == 1
    version = Game.objects.get(pk=game.pk).version
    assert services.sweep(now=now) == []
    assert services.apply_timeout(game=game.pk, now=now).applied is False
    assert Game.objects.get(pk=game.pk).version == version
    assert sum(game.seats.values_list("timeouts", flat=True)) == 1


def _until_only_one_has_dice(game: Game, ada: Any, bob: Any) -> tuple[Seat, Seat]:
    """Play the seeded Vegas game on (Bob places his biggest group, Ada one die at a time)
    until Bob has no dice left and Ada, to act, rolled more than one number."""
    engine = get_engine(game.game_type)
    first, other = game.seats.get(user=ada), game.seats.get(user=bob)
    while True:
        game.refresh_from_db()
        state = game.state
        assert state is not None and state["round"] == 1, "the position was not reached"
        seat = seat_to_act(game)
        only_ada = seat == first and state["dice"][other.order] == 0
        if only_ada and len(engine.legal_commands(state, first.order)) > 1:
            return first, other
        roll = state["roll"]["own"] + state["roll"]["white"]
        numbers = sorted(set(roll), key=lambda n: (roll.count(n), n))
        text = f"place {numbers[0] if seat == first else numbers[-1]}"
        services.submit_command(game=game, user=seat.user, text=text)


def test_one_missed_deadline_plays_one_turn_even_when_the_next_is_the_same_seats(
    make_game, ada, bob
):
    # Vegas: once the others have no dice left, the turn comes back to the same seat.
    game = make_game(ada, bob)
    late, other = _until_only_one_has_dice(game, ada, bob)
    engine = get_engine(game.game_type)
    assert game.state is not None
    dice_before = game.state["dice"][late.order]
    version, now = game.version, _past_deadline(game)

    result = services.apply_timeout(game=game, now=now)

    played = Move.objects.filter(game=game, seq__gt=version)
    assert [(m.seat, m.source, m.text[:6]) for m in played] == [(late, "system", "place ")]
    assert result.missed == [late.order] and result.moves == list(played)
    late.refresh_from_db()
    assert (late.timeouts, late.timeouts_in_a_row) == (1, 1)
    assert game.state is not None and game.state["round"] == 1
    assert 0 < game.state["dice"][late.order] < dice_before
    assert engine.to_act(game.state) == [late.order]  # their next turn, with a new deadline
    assert game.deadline == result.deadline == now + timedelta(hours=game.turn_hours)
    other.refresh_from_db()
    assert other.timeouts == 0
    assert services.verify_game(game=game).ok
