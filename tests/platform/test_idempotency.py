"""A retried submission (same idempotency key) gets the first answer and writes nothing."""

from __future__ import annotations

import pytest

from games import services
from games.models import Move
from games.services.errors import IdempotencyKeyReused

from .helpers import footprint, legal_text, user_to_act

pytestmark = pytest.mark.django_db


def test_the_same_key_twice_gives_one_move_and_the_same_answer(make_game, ada, bob):
    game = make_game(ada, bob)
    user, text = user_to_act(game), legal_text(game)
    first = services.submit_command(game=game, user=user, text=text, idempotency_key="k-1")
    before = footprint(game)
    again = services.submit_command(game=game, user=user, text=text, idempotency_key="k-1")
    assert footprint(game) == before
    assert again.replayed and not first.replayed
    assert again.version == first.version
    assert [m.pk for m in again.moves] == [m.pk for m in first.moves]
    assert Move.objects.filter(game=game, idempotency_key="k-1").count() == 1


def test_a_retry_wins_over_the_version_check(make_game, ada, bob):
    game = make_game(ada, bob)
    user, text = user_to_act(game), legal_text(game)
    services.submit_command(
        game=game, user=user, text=text, idempotency_key="k", expected_version=0
    )
    # the client did not see the answer and retries with the same (now stale) version
    again = services.submit_command(
        game=game, user=user, text=text, idempotency_key="k", expected_version=0
    )
    assert again.replayed and again.version == 1


def test_the_replayed_answer_includes_the_bot_moves_that_followed(make_game, ada):
    game = make_game(ada, bots=1)
    text = legal_text(game)
    first = services.submit_command(game=game, user=ada, text=text, idempotency_key="x")
    assert len(first.moves) >= 2 and first.moves[1].source == "bot"
    again = services.submit_command(game=game, user=ada, text=text, idempotency_key="x")
    assert [m.seq for m in again.moves] == [m.seq for m in first.moves]


def test_another_players_key_is_refused(make_game, ada, bob):
    """Keys are per game: another player's is a reused key (422 at the API, decision 0039)."""
    game = make_game(ada, bob)
    user = user_to_act(game)
    services.submit_command(game=game, user=user, text=legal_text(game), idempotency_key="k")
    other = bob if user == ada else ada
    before = footprint(game)
    with pytest.raises(IdempotencyKeyReused):
        services.submit_command(game=game, user=other, text="place 1", idempotency_key="k")
    assert footprint(game) == before
