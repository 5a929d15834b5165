"""Reads: a player's games, the game view (no seed or hidden order before the end), the log."""

from __future__ import annotations

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from games import selectors, services
from games.models import Game

from .helpers import legal_text, seat_to_act, user_to_act

pytestmark = pytest.mark.django_db


def dump(value):
    return json.dumps(value, cls=DjangoJSONEncoder)


def test_it_lists_my_games_and_those_waiting_for_me(make_game, ada, bob, cy):
    game = make_game(ada, bob)
    other = make_game(ada, cy, start=False)
    assert set(selectors.games_for_user(user=ada)) == {game, other}
    assert list(selectors.games_for_user(user=ada, status="open")) == [other]
    waiting = user_to_act(game)
    idle = bob if waiting == ada else ada
    assert list(selectors.games_for_user(user=waiting, waiting=True)) == [game]
    assert list(selectors.games_for_user(user=idle, waiting=True)) == []
    assert game in selectors.games_for_user(user=idle, waiting=False)


def test_the_view_hides_the_seed_and_the_pile_until_the_end(make_game, ada):
    game = make_game(ada, bots=1)
    view = selectors.game_view(game=game, user=ada)
    text = dump(view)
    assert game.seed not in text and view["seed"] is None
    assert not isinstance(view["view"].get("pile"), list)  # a count, not the order
    assert view["seed_hash"] == game.seed_hash
    assert view["your_turn"] and view["legal_commands"]
    assert view["version"] == game.version and view["deadline"]
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=ada, text=legal_text(game))
    view = selectors.game_view(game=game, user=ada)
    assert view["seed"] == game.seed and view["outcome"] == game.outcome
    assert view["legal_commands"] == [] and view["to_act"] == []


def test_lords_of_vegas_views_hide_the_deck(make_game, ada, bob):
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    game = make_game(ada, bob, game_type="lords-of-vegas")
    for user in (ada, bob, None):
        view = selectors.game_view(game=game, user=user)
        text = dump(view)
        assert game.seed not in text
        assert dump(game.state["deck"][:5])[1:-1] not in text


def test_a_spectator_sees_a_public_game_but_not_a_private_one(make_game, ada, bob, dee):
    game = make_game(ada, bob)
    view = selectors.game_view(game=game, user=dee)
    assert view["your_seat"] is None and view["legal_commands"] == []
    secret = make_game(ada, bob, private=True)
    with pytest.raises(services.NotAllowed):
        selectors.game_view(game=secret, user=dee)


def test_the_log_since_a_version(make_game, ada, bob):
    game = make_game(ada, bob)
    seat = seat_to_act(game)
    services.submit_command(game=game, user=seat.user, text=legal_text(game))
    log = selectors.moves_since(game=game, user=ada)
    assert [m["seq"] for m in log] == [0, 1]
    assert [m["seq"] for m in selectors.moves_since(game=game, since=0, user=ada)] == [1]
    assert log[1]["seat"] == seat.order and all(log[1]["described"])
    assert selectors.moves_since(game=game, since=1, user=ada) == []


def test_the_lots_changed_are_listed_in_the_boards_order() -> None:
    """ "C8, C9, C12", not the text's order "C12, C8, C9" (found by play-testing)."""
    before: dict[str, dict[str, object]] = {"tiles": {}, "markers": {}}
    now = {"tiles": {"A2": {}}, "markers": {"C12": 0, "C8": 1, "C9": 0}}
    assert selectors.lots_changed(before, now) == ["A2", "C8", "C9", "C12"]
