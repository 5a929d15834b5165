"""Fixtures for the league tests: a league of Vegas run by Ada, and a way to play games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import selectors, services
from games.models import Game
from leagues import services as leagues
from leagues.models import League, Season


@pytest.fixture
def league(ada: User) -> League:
    return leagues.create_league(creator=ada, name="Vegas Nights", game_type="vegas")


@pytest.fixture
def season_with(league: League, ada: User) -> Callable[..., Season]:
    """``season_with(bob, cy, players_per_game=2)``: a draft season, those players in it."""

    def make(*players: User, **options: Any) -> Season:
        season = leagues.open_season(league=league, by=ada, **options)
        for user in players:
            leagues.join_league(league=league, user=user)
            leagues.enter_season(season=season, user=user)
        return season

    return make


def play_to_the_end(game: Game, limit: int = 3000) -> Game:
    """Whoever the game waits on plays their first legal command, through the service."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.seats.select_related("user").get(order=_first_to_act(game))
        view = selectors.game_view(game=game, user=seat.user)
        services.submit_command(
            game=game,
            user=seat.user,
            text=view["legal_commands"][0]["text"],
            expected_version=view["version"],
        )
    raise AssertionError(f"game #{game.pk} did not end in {limit} moves")


def _first_to_act(game: Game) -> int:
    from games.engines.registry import get_engine

    assert game.state is not None
    return get_engine(game.game_type).to_act(game.state)[0]


def players_of(game: Game) -> set[str]:
    return {seat.user.email for seat in game.seats.select_related("user") if seat.user}


@pytest.fixture
def named(make_user: Any) -> Any:
    """``named("bob")``: bob@example.org, whose display name is "Bob"."""

    def make(name: str, **extra: Any) -> User:
        user = make_user(name, **extra)
        user.display_name = name.title()
        user.save(update_fields=["display_name"])
        return user

    return make
