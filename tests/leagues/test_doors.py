"""The league pages, the REST endpoints and the admin show and run the same leagues."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from leagues import selectors
from leagues import services as leagues
from leagues.models import League, Season, SeasonGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season_with: Callable[..., Season], ada: User, bob: User, cy: User) -> Season:
    """A running season of three: bob resigned his game against ada."""
    season = season_with(ada, bob, cy)
    leagues.start_season(season=season, by=ada)
    for link in selectors.season_games(season=season):
        if {s.user_id for s in link.game.seats.all()} == {ada.pk, bob.pk}:
            services.resign(game=link.game, user=bob)
    return season


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_lists_leagues_and_shows_one_with_its_seasons(
    played: Season, league: League, bob: User
) -> None:
    listed = _api(bob).get("/api/v1/leagues/")
    assert listed.status_code == 200
    assert [(x["slug"], x["members"], x["open"]) for x in listed.json()] == [
        ("vegas-nights", 3, True)
    ]
    shown = _api(bob).get("/api/v1/leagues/vegas-nights/").json()
    assert shown["admins"] == ["ada"]
    assert [(s["number"], s["status"]) for s in shown["seasons"]] == [(1, "running")]


def test_the_api_shows_the_standings(played: Season, bob: User) -> None:
    answer = _api(bob).get("/api/v1/leagues/vegas-nights/standings/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["season"]["number"] == 1
    assert body["table"][0] == {
        "position": 1,
        "shared": False,
        "player": "ada",
        "player_id": body["table"][0]["player_id"],
        "played": 1,
        "wins": 1,
        "points": 1.0,
        "rating": body["table"][0]["rating"],
    }
    assert body["table"][0]["rating"] > 0
    assert User.objects.get(pk=body["table"][0]["player_id"]).email == "ada@example.org"
    assert body["table"][-1]["player"] == "bob"
    assert len(body["season"]["games"]) == 3
    assert all(g["url"] == f"/games/{g['id']}/" for g in body["season"]["games"])
    assert [r["player"] for r in body["ratings"]] == ["ada", "bob"]
    again = _api(bob).get("/api/v1/leagues/vegas-nights/standings/", {"season": 1}).json()
    assert again["table"] == body["table"]


@pytest.mark.parametrize(
    ("url", "code", "status"),
    [
        ("/api/v1/leagues/nowhere/", "not_found", 404),
        ("/api/v1/leagues/nowhere/standings/", "not_found", 404),
        ("/api/v1/leagues/vegas-nights/standings/?season=9", "not_found", 404),
        ("/api/v1/leagues/vegas-nights/standings/?season=x", "invalid", 400),
        ("/api/v1/leagues/vegas-nights/nothing/", "not_found", 404),
    ],
)
def test_the_api_answers_errors_in_the_one_shape(
    played: Season, bob: User, url: str, code: str, status: int
) -> None:
    answer = _api(bob).get(url)
    assert answer.status_code == status
    error = answer.json()["error"]
    assert error["code"] == code
    assert error["message"]


def test_the_api_needs_a_sign_in(played: Season) -> None:
    answer = APIClient().get("/api/v1/leagues/")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "not_authenticated"


def test_the_pages_show_the_league_its_standings_and_games(
    played: Season, client: Client, cy: User
) -> None:
    client.force_login(cy)
    listed = client.get("/leagues/")
    assert listed.status_code == 200
    assert 'href="/leagues/vegas-nights/"' in listed.content.decode()
    page = client.get("/leagues/vegas-nights/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="standings"' in html
    ada = User.objects.get(email="ada@example.org")
    assert f'<td>1</td><td><a href="/ratings/players/{ada.pk}/">ada</a></td>' in html
    for link in SeasonGame.objects.filter(season=played):
        assert f'href="/games/{link.game_id}/"' in html
    assert "Leave the league" in html


def test_an_unknown_league_page_is_a_404(client: Client, bob: User) -> None:
    client.force_login(bob)
    answer = client.get("/leagues/nowhere/")
    assert answer.status_code == 404
    assert "there is no league" in answer.content.decode().lower()


def test_the_join_button_makes_a_member(league: League, client: Client, dee: User) -> None:
    client.force_login(dee)
    page = client.get("/leagues/vegas-nights/").content.decode()
    assert 'id="join"' in page
    answer = client.post("/leagues/vegas-nights/join/")
    assert answer.status_code == 302
    assert league.memberships.filter(user=dee).exists()


def test_a_league_by_approval_takes_a_request_not_a_member(
    league: League, client: Client, dee: User
) -> None:
    league.open = False
    league.save()
    client.force_login(dee)
    assert "Ask to join" in client.get("/leagues/vegas-nights/").content.decode()
    client.post("/leagues/vegas-nights/join/")
    assert not league.memberships.exists()
    assert league.join_requests.filter(user=dee).exists()
    assert "You asked to join" in client.get("/leagues/vegas-nights/").content.decode()


def test_the_admin_action_starts_a_season(
    season_with: Callable[..., Season],
    client: Client,
    make_user: Callable[..., User],
    bob: User,
    cy: User,
) -> None:
    staff = make_user("root", is_staff=True, is_superuser=True)
    season = season_with(bob, cy)
    client.force_login(staff)
    answer = client.post(
        "/admin/leagues/season/",
        {"action": "start_seasons", "_selected_action": [season.pk]},
        follow=True,
    )
    assert answer.status_code == 200
    assert "1 season started." in answer.content.decode()
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    assert SeasonGame.objects.filter(season=season).count() == 1
    assert client.get(f"/admin/leagues/season/{season.pk}/change/").status_code == 200
    assert client.get(f"/admin/leagues/league/{season.league_id}/change/").status_code == 200
