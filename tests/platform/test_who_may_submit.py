"""Who may submit when: the seats the game waits on; standing preferences at any time."""

from __future__ import annotations

import pytest

from games import services
from games.models import Move

from .helpers import footprint, legal_text, seat_to_act

pytestmark = pytest.mark.django_db


def test_a_player_sets_a_standing_preference_out_of_turn(make_game, ada, bob):
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    game = make_game(ada, bob, game_type="lords-of-vegas")
    waiting = seat_to_act(game)
    other = game.seats.exclude(pk=waiting.pk).get()
    result = services.submit_command(game=game, user=other.user, text="prefer layoff always")
    [move] = result.moves
    assert move.seat == other and move.events[0]["type"] == "preference"
    assert seat_to_act(game) == waiting  # still their turn
    assert services.verify_game(game=game).ok


def test_an_ordinary_command_out_of_turn_is_refused(make_game, ada, bob):
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    game = make_game(ada, bob, game_type="lords-of-vegas")
    other = game.seats.exclude(pk=seat_to_act(game).pk).get()
    waiting = seat_to_act(game)
    before = footprint(game)
    with pytest.raises(services.NotYourTurn) as refused:
        services.submit_command(game=game, user=other.user, text="end")
    assert footprint(game) == before
    # It names whom the game waits on, by colour and name, in the player's words.
    message = refused.value.message
    assert message.startswith("end: ")
    assert waiting.colour.capitalize() in message and waiting.name in message
    assert "not yours" in message and other.name not in message
    assert refused.value.extra["to_act"] == [waiting.order]


def test_not_your_turn_names_every_seat_the_game_waits_on(ada, bob):
    from games.models import Seat
    from games.services.naming import not_your_turn

    seats = [
        Seat(order=0, user=ada, colour="red"),
        Seat(order=1, user=bob, colour="blue"),
        Seat(order=2, bot="greedy", colour=""),
    ]
    assert "Red's turn (ada)" in not_your_turn([0], seats)
    several = not_your_turn([1, 2], seats)
    assert "Blue (bob)" in several and "greedy bot" in several and "Red" not in several
    assert "greedy bot's turn" in not_your_turn([2], seats)
    assert "seat 4" in not_your_turn([4], seats)  # seats not read: still says which


def test_moves_are_announced_after_commit_only(
    make_game, ada, bob, django_capture_on_commit_callbacks
):
    """The apps built on the games hear of committed moves (the outbox, drained after the
    commit when tasks run eagerly), never of rolled-back ones."""
    from games.models import Announcement
    from games.services.hooks import moves_committed

    calls = []

    def heard(sender: object, *, game_id: int, seqs: list[int], **kwargs: object) -> None:
        calls.append((game_id, seqs))

    moves_committed.connect(heard, dispatch_uid="test-heard")
    try:
        game = make_game(ada, bob, start=False)
        with django_capture_on_commit_callbacks(execute=True):
            services.start_game(game=game, by=ada)
        assert calls == [(game.pk, [0])]
        seat = seat_to_act(game)
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(services.ServiceError),
        ):
            services.submit_command(game=game, user=seat.user, text=f"{legal_text(game)}; place 1")
        assert callbacks == [] and calls == [(game.pk, [0])]
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_command(game=game, user=seat.user, text=legal_text(game))
        assert calls[-1] == (game.pk, [1])
        assert Move.objects.filter(game=game).count() == 2
        assert not Announcement.objects.exists()  # each announced once, then gone
    finally:
        moves_committed.disconnect(dispatch_uid="test-heard")
