"""A move sent to a game aborted while it ran is refused with what happened (an abort), not
"cancelled before it started"."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.services.errors import GameNotActive
from games.services.tools import abort_game

pytestmark = pytest.mark.django_db


def test_a_move_in_an_aborted_game_says_it_was_aborted(
    make_game: Any, make_user: Any, ada: Any, bob: Any
) -> None:
    game = make_game(ada, bob)
    abort_game(game=game, by=make_user("root", is_staff=True), why="a broken table")
    with pytest.raises(GameNotActive) as refused:
        services.submit_command(game=game, user=ada, text="roll")
    assert refused.value.message == (
        f"game #{game.pk} was aborted while it was played: nothing more can be played in it"
    )


def test_the_game_page_of_an_aborted_game_says_it_was_aborted(
    make_game: Any, make_user: Any, ada: Any, bob: Any, client: Any
) -> None:
    game = make_game(ada, bob)
    abort_game(game=game, by=make_user("root", is_staff=True), why="a broken table")
    client.force_login(ada)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "a broken table" in page
    assert "cancelled before it started" not in page
