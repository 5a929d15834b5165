"""Promotion and relegation: the next season, opened from a finished one, enters its
players again, the top ``movers`` of each division one up and the bottom ones one down."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import services
from leagues import selectors
from leagues import services as leagues
from leagues.models import League, Mail, Season
from leagues.services import SeasonStatusConflict
from tests.leagues.conftest import players_of

pytestmark = pytest.mark.django_db


def _play(season: Season, ranking: list[User]) -> None:
    """Every game of the season: the player higher in ``ranking`` wins (the other resigns)."""
    for link in selectors.season_games(season=season):
        seated = players_of(link.game)
        loser = [u for u in ranking if u.email in seated][-1]
        services.resign(game=link.game, user=loser)


def _divisions(season: Season) -> dict[str, int]:
    return {e.user.email.split("@")[0]: e.division for e in season.entries.select_related("user")}


def test_the_top_go_up_and_the_bottom_go_down(
    season_with: Callable[..., Season], league: League, ada: User, make_user: Any
) -> None:
    p0, p1, p2, p3 = (make_user(f"p{i}") for i in range(4))
    first = season_with(p0, p1, p2, p3, players_per_game=2, divisions=2, movers=2)
    assert set(_divisions(first).values()) == {2}  # newcomers start in the lowest division
    leagues.start_season(season=first, by=ada)
    with pytest.raises(SeasonStatusConflict, match="the next season opens from a finished one"):
        leagues.next_season(season=first, by=ada)
    _play(first, [p0, p1, p2, p3])
    leagues.finish_season(season=first, by=ada)

    second = leagues.next_season(season=first, by=ada)
    assert (second.number, second.divisions, second.movers) == (2, 2, 2)
    assert _divisions(second) == {"p0": 1, "p1": 1, "p2": 2, "p3": 2}

    leagues.start_season(season=second, by=ada)
    _play(second, [p1, p0, p3, p2])  # p1 beats p0 in division 1, p3 beats p2 in division 2
    leagues.finish_season(season=second, by=ada)
    # Two players a division: one goes each way (nobody moves twice).
    assert _divisions(leagues.next_season(season=second, by=ada)) == {
        "p1": 1,
        "p3": 1,
        "p0": 2,
        "p2": 2,
    }


def test_only_an_admin_opens_the_next_season(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    season = season_with(bob, cy)
    with pytest.raises(Exception, match="only an admin of the league 'Vegas Nights' opens"):
        leagues.next_season(season=season, by=bob)
    assert Season.objects.count() == 1


def test_the_admin_opens_it_from_the_finished_season_page(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User, client: Any
) -> None:
    season = season_with(bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada)
    _play(season, [bob, cy])
    client.force_login(ada)
    page = client.get("/leagues/vegas-nights/seasons/1/").content.decode()
    assert 'id="next-season"' not in page  # running: not yet
    leagues.finish_season(season=season, by=ada)
    page = client.get("/leagues/vegas-nights/seasons/1/").content.decode()
    assert "Open the next season (promotion and relegation)" in page
    answer = client.post("/leagues/vegas-nights/seasons/1/next/", follow=True)
    assert "The next season is open: its players are entered, promoted and relegated." in (
        answer.content.decode()
    )
    assert _divisions(Season.objects.get(number=2)) == {"bob": 1, "cy": 1}


def test_the_season_over_email_gives_the_place_in_the_players_division(
    season_with: Callable[..., Season], league: League, ada: User, make_user: Any
) -> None:
    """Found by review: the email gave a place in the merged table ("1 of 4" to a second
    division's winner, above the first division's champion); promotion goes by division."""
    p0, p1, p2, p3 = (make_user(f"p{i}") for i in range(4))
    first = season_with(p0, p1, p2, p3, players_per_game=2, divisions=2, movers=2)
    leagues.start_season(season=first, by=ada)
    _play(first, [p0, p1, p2, p3])
    leagues.finish_season(season=first, by=ada)
    second = leagues.next_season(season=first, by=ada)
    leagues.start_season(season=second, by=ada)
    _play(second, [p1, p0, p3, p2])  # p1 beats p0 in division 1, p3 beats p2 in division 2
    leagues.finish_season(season=second, by=ada)

    told = {
        m.to.split("@")[0]: m.body_text
        for m in Mail.objects.filter(kind=Mail.Kind.SEASON_OVER, league=league)
        if "Season 2" in m.body_text
    }
    assert "Your final place in division 1: 1 of 2." in told["p1"]
    assert "Your final place in division 1: 2 of 2." in told["p0"]
    assert "Your final place in division 2: 1 of 2." in told["p3"]
    assert "Your final place in division 2: 2 of 2." in told["p2"]
    subject = Mail.objects.get(to=p3.email, kind=Mail.Kind.SEASON_OVER, subject__contains="2 is")
    assert subject.subject == "[Vegas Nights] Season 2 is over: your place in division 2, 1 of 2"


def test_a_season_with_divisions_and_a_substitute_finishes(
    season_with: Callable[..., Season], league: League, ada: User, make_user: Any
) -> None:
    """Found by review: a substitute who played a season game (the game tools) has a line in
    the table and no division; finishing the season failed on him (KeyError)."""
    from games.services import tools

    p0, p1, p2, p3 = (make_user(f"p{i}") for i in range(4))
    sub = make_user("sub")
    season = season_with(p0, p1, p2, p3, players_per_game=2, divisions=2, movers=1)
    leagues.start_season(season=season, by=ada)
    game = season.season_games.get(round=1, game__seats__user=p0).game
    seat = game.seats.get(user=p0)
    tools.replace_player(
        game=game, by=ada, seat=seat.order, why="away", substitute=sub, authorized=True
    )
    _play(season, [p0, p1, p2, p3, sub])
    finished = leagues.finish_season(season=season, by=ada)
    assert finished.status == Season.Status.FINISHED
    told = Mail.objects.filter(kind=Mail.Kind.SEASON_OVER, league=league)
    assert sorted(m.to.split("@")[0] for m in told) == ["p0", "p1", "p2", "p3"]
