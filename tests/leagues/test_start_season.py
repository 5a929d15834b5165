"""An admin runs a season: players join the league, enter the season, and starting it
creates and starts its games through the platform's services."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games.models import Game, Seat
from games.services.errors import InvalidRequest, NotAllowed
from leagues import services as leagues
from leagues.models import League, Membership, Season, SeasonGame
from leagues.services import SeasonStatusConflict
from tests.leagues.conftest import players_of

pytestmark = pytest.mark.django_db


def test_it_makes_the_creator_an_admin(league: League, ada: User) -> None:
    assert list(league.admins.all()) == [ada]
    assert league.slug == "vegas-nights"
    assert not Membership.objects.exists()


def test_it_pairs_every_two_players_once_in_a_round_robin(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User, dee: User
) -> None:
    season = season_with(ada, bob, cy, dee, players_per_game=2)
    leagues.start_season(season=season, by=ada)

    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    assert season.pairing_seed
    links = list(SeasonGame.objects.filter(season=season).select_related("game"))
    assert len(links) == 6
    assert all(link.game.status == Game.Status.ACTIVE for link in links)
    assert all(link.game.game_type == "vegas" and link.game.state for link in links)
    pairs = Counter(frozenset(players_of(link.game)) for link in links)
    everyone = {u.email for u in (ada, bob, cy, dee)}
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(everyone, 2)}
    assert set(pairs.values()) == {1}
    # Three rounds, each player once in each.
    for number in (1, 2, 3):
        seated = [e for link in links if link.round == number for e in players_of(link.game)]
        assert sorted(seated) == sorted(everyone)


def test_an_odd_number_of_players_gets_a_bye_each_round(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    season = season_with(ada, bob, cy)
    leagues.start_season(season=season, by=ada)
    links = SeasonGame.objects.filter(season=season)
    assert links.count() == 3
    assert sorted(links.values_list("round", flat=True)) == [1, 2, 3]


def test_bigger_games_deal_even_groups_from_the_seed(
    season_with: Callable[..., Season], make_user: Callable[..., User], ada: User
) -> None:
    players = [make_user(f"p{i}") for i in range(7)]
    season = season_with(*players, players_per_game=4, smallest_table=3, rounds=2, turn_hours=24)
    leagues.start_season(season=season, by=ada, seed="fixed")

    games = [link.game for link in SeasonGame.objects.filter(season=season).order_by("id")]
    assert sorted(len(players_of(g)) for g in games) == [3, 3, 4, 4]
    assert all(g.turn_hours == 24 and g.status == Game.Status.ACTIVE for g in games)
    for number in (1, 2):
        seated = Seat.objects.filter(
            game__season_game__round=number, game__season_game__season=season
        )
        assert seated.count() == 7  # everyone plays once a round


def test_it_refuses_a_non_admin_and_writes_nothing(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    season = season_with(bob, cy)
    with pytest.raises(NotAllowed) as refused:
        leagues.start_season(season=season, by=bob)
    assert refused.value.message == (
        "only an admin of the league 'Vegas Nights' starts its seasons"
    )
    assert refused.value.status == 403
    season.refresh_from_db()
    assert season.status == Season.Status.DRAFT
    assert not Game.objects.exists()
    assert not SeasonGame.objects.exists()


def test_staff_may_run_any_league(
    season_with: Callable[..., Season], make_user: Callable[..., User], bob: User, cy: User
) -> None:
    staff = make_user("staff", is_staff=True)
    season = season_with(bob, cy)
    leagues.start_season(season=season, by=staff)
    assert SeasonGame.objects.filter(season=season).count() == 1


def test_it_refuses_other_writes_by_non_admins(league: League, bob: User, cy: User) -> None:
    with pytest.raises(NotAllowed, match="only an admin of the league 'Vegas Nights' opens"):
        leagues.open_season(league=league, by=bob)
    with pytest.raises(NotAllowed, match="adds members"):
        leagues.add_member(league=league, user=cy, by=bob)
    assert not Season.objects.exists()
    assert not Membership.objects.exists()


def test_a_closed_league_takes_members_from_its_admins_only(
    league: League, ada: User, bob: User
) -> None:
    league.open = False
    league.save()
    with pytest.raises(NotAllowed, match="is closed: ask one of its admins to add you"):
        leagues.join_league(league=league, user=bob)
    leagues.add_member(league=league, user=bob, by=ada)
    assert league.memberships.filter(user=bob).exists()


def test_only_members_enter_and_only_drafts_take_entries(
    season_with: Callable[..., Season], league: League, ada: User, bob: User, cy: User, dee: User
) -> None:
    season = season_with(bob, cy)
    with pytest.raises(NotAllowed, match="join the league 'Vegas Nights' first"):
        leagues.enter_season(season=season, user=dee)
    leagues.start_season(season=season, by=ada)
    leagues.join_league(league=league, user=dee)
    with pytest.raises(SeasonStatusConflict, match="is running: entries close at the start"):
        leagues.enter_season(season=season, user=dee)
    with pytest.raises(SeasonStatusConflict, match="it can be started once only"):
        leagues.start_season(season=season, by=ada)


def test_a_season_needs_two_players(
    season_with: Callable[..., Season], ada: User, bob: User
) -> None:
    season = season_with(bob)
    with pytest.raises(InvalidRequest, match="needs at least 2 players entered; it has 1"):
        leagues.start_season(season=season, by=ada)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players_per_game": 7}, "players per game is a whole number from 2 to 5, not 7"),
        ({"rounds": 0}, "rounds is a whole number from 1 to 10, not 0"),
        ({"turn_hours": 0}, "hours per turn is a whole number"),
    ],
)
def test_it_refuses_bad_season_settings(
    league: League, ada: User, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidRequest, match=message):
        leagues.open_season(league=league, by=ada, **options)
    assert not Season.objects.exists()


def test_it_refuses_a_taken_slug_and_an_unknown_game(ada: User, league: League) -> None:
    with pytest.raises(InvalidRequest, match="a league of that name already exists") as taken:
        leagues.create_league(creator=ada, name="Vegas Nights", game_type="vegas")
    assert taken.value.extra == {"field": "name"}  # (the site's form has no slug)
    with pytest.raises(InvalidRequest, match="the address 'vegas-nights' is taken") as taken:
        leagues.create_league(creator=ada, name="Nights", slug="vegas-nights", game_type="vegas")
    assert taken.value.extra == {"field": "slug"}
    with pytest.raises(InvalidRequest, match="unknown game type 'chess'"):
        leagues.create_league(creator=ada, name="Chess", game_type="chess")
    assert League.objects.count() == 1
