"""Playing a season's games to the end gives the standings and moves the ratings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import services
from games.models import Game
from leagues import selectors
from leagues import services as leagues
from leagues.models import League, Season
from leagues.services import SeasonStatusConflict
from tests.leagues.conftest import play_to_the_end, players_of

pytestmark = pytest.mark.django_db


def _game_of(season: Season, *users: User) -> Game:
    wanted = {u.email for u in users}
    return next(
        link.game
        for link in selectors.season_games(season=season)
        if players_of(link.game) == wanted
    )


def _table(season: Season) -> list[tuple[str, int, int, float]]:
    return [
        (line.user.email.split("@")[0], line.played, line.wins, line.points)
        for line in selectors.season_standings(season=season)
    ]


def _ordinal(league: League, user: User) -> float:
    found = [r.ordinal for r in selectors.league_ratings(league=league) if r.user == user]
    return found[0] if found else 0.0


def test_a_season_played_to_the_end_gives_its_standings(
    season_with: Callable[..., Season], league: League, ada: User, bob: User, cy: User
) -> None:
    season = season_with(ada, bob, cy)
    leagues.start_season(season=season, by=ada)
    assert _table(season) == [("ada", 0, 0, 0.0), ("bob", 0, 0, 0.0), ("cy", 0, 0, 0.0)]

    services.resign(game=_game_of(season, ada, bob), user=bob)
    assert _ordinal(league, ada) > 0 > _ordinal(league, bob)
    services.resign(game=_game_of(season, ada, cy), user=cy)
    with pytest.raises(
        SeasonStatusConflict, match=r"Season 1 has games still being played \(1 of 3\)"
    ):
        leagues.finish_season(season=season, by=ada)

    last = play_to_the_end(_game_of(season, bob, cy))
    assert last.status == Game.Status.FINISHED
    assert last.outcome is not None
    won = {
        s.user.email.split("@")[0]
        for s in last.seats.all()
        if s.user and s.order in last.outcome["winners"]
    }
    table = _table(season)
    assert table[0] == ("ada", 2, 2, 2.0)
    if len(won) == 2:  # a tie shares the points of first and second
        assert sorted(table[1:]) == [("bob", 2, 1, 0.5), ("cy", 2, 1, 0.5)]
    else:
        (winner,) = won
        assert table[1] == (winner, 2, 1, 1.0)
        assert table[2][1:] == (2, 0, 0.0)
    assert next(line.position for line in selectors.season_standings(season=season)) == 1

    leagues.finish_season(season=season, by=ada)
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    ratings = selectors.league_ratings(league=league)
    assert ratings[0].user == ada
    assert ratings[0].games == 2


def test_a_forfeited_player_ranks_last_of_a_bigger_game(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    season = season_with(ada, bob, cy, players_per_game=3)
    leagues.start_season(season=season, by=ada)
    (link,) = selectors.season_games(season=season)
    services.resign(game=link.game, user=cy)  # the game goes on: a bot plays cy's seat
    game = play_to_the_end(link.game)
    assert game.outcome is not None
    placings = game.outcome["placings"]
    assert placings[-1]["resigned"] is True
    table = _table(season)
    assert table[-1] == ("cy", 1, 0, 0.0)
    assert sum(points for *_, points in table) == 3.0  # 2 + 1 + 0


def test_the_winners_rating_rises_and_the_losers_falls(
    season_with: Callable[..., Season], league: League, ada: User, bob: User
) -> None:
    first = season_with(ada, bob)
    leagues.start_season(season=first, by=ada)
    services.resign(game=_game_of(first, ada, bob), user=bob)
    after_one = (_ordinal(league, ada), _ordinal(league, bob))
    leagues.finish_season(season=first, by=ada)

    second = leagues.open_season(league=league, by=ada)
    for user in (ada, bob):
        leagues.enter_season(season=second, user=user)
    leagues.start_season(season=second, by=ada)
    services.resign(game=_game_of(second, ada, bob), user=bob)
    assert _ordinal(league, ada) > after_one[0] > 0
    assert _ordinal(league, bob) < after_one[1] < 0
    # Each season's table counts its own games; the rating counts the league's.
    assert _table(second)[0] == ("ada", 1, 1, 1.0)
