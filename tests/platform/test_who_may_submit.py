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
    before = footprint(game)
    with pytest.raises(services.NotYourTurn):
        services.submit_command(game=game, user=other.user, text="end")
    assert footprint(game) == before


def test_notifications_are_hooked_after_commit_only(
    make_game, ada, bob, monkeypatch, django_capture_on_commit_callbacks
):
    calls = []
    monkeypatch.setattr(
        "games.services.hooks.after_moves", lambda game_id, seqs: calls.append((game_id, seqs))
    )
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
