"""Every league-admin action is refused (403, nothing changed) to a member, a non-member,
another league's admin and a signed-out visitor; the league's admin (not staff) does it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Move
from leagues import services as leagues
from leagues.models import JoinRequest, League, LeagueInvitation, Mail, Membership, Season
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting(
    league: League, ada: User, bob: User, cy: User, dee: User, make_user: Any
) -> dict[str, Any]:
    """Ada runs Vegas Nights (not staff); Bob is a member; Cy a stranger; Dee runs another
    league. A draft season and a running one with a game. (Bob has a display name: the
    admins' forms find people by it, never by address.)"""
    assert not ada.is_staff
    bob.display_name = "Bob"
    bob.save(update_fields=["display_name"])
    leagues.join_league(league=league, user=bob)
    leagues.create_league(creator=dee, name="Other", game_type="vegas")
    eve = make_user("eve")
    JoinRequest.objects.create(league=league, user=eve)
    running = leagues.open_season(league=league, by=ada, players_per_game=2)
    for user in (bob, make_user("fay")):
        leagues.join_league(league=league, user=user)  # (an admin enters members only)
        leagues.enter_season(season=running, user=user, by=ada)
    leagues.start_season(season=running, by=ada)
    draft = leagues.open_season(league=league, by=ada)
    game = Game.objects.get(season_game__season=running)
    return {"eve": eve, "game": game, "draft": draft}


def _actions(s: dict[str, Any], bob: User) -> list[tuple[str, dict[str, str]]]:
    base = "/leagues/vegas-nights"
    g = s["game"].pk
    return [
        (
            f"{base}/manage/edit/",
            {
                "name": "X",
                "game_type": "vegas",
                "edition": "standard",
                "players_per_game": "2",
                "turn_hours": "1",
                "max_timeouts": "0",
                "vacation_days": "0",
                "membership": "open",
            },
        ),
        (f"{base}/manage/admins/", {"admin-who": "Bob"}),
        (f"{base}/manage/members/", {"member-who": "eve@example.com"}),
        (f"{base}/manage/members/{bob.pk}/remove/", {}),
        (f"{base}/manage/requests/{s['eve'].pk}/accept/", {}),
        (f"{base}/manage/invite/", {"email": "new@example.com"}),
        (f"{base}/manage/announce/", {"subject": "Hi", "body": "Hello"}),
        (
            f"{base}/manage/seasons/",
            {
                "players_per_game": "2",
                "rounds": "1",
                "divisions": "1",
                "turn_hours": "72",
                "max_timeouts": "3",
                "vacation_days": "1",
            },
        ),
        (f"{base}/seasons/2/enrolment/", {"open": "0"}),
        (f"{base}/seasons/2/entries/", {"member-who": "Bob"}),
        (f"{base}/seasons/2/start/", {}),
        (f"{base}/seasons/1/finish/", {}),
        (f"/leagues/games/{g}/tools/extend/", {"why": "x", "hours": "5"}),
        (f"/leagues/games/{g}/tools/pause/", {"why": "x"}),
        (f"/leagues/games/{g}/tools/replace/", {"why": "x", "seat": "0"}),
        (f"/leagues/games/{g}/tools/abort/", {"why": "x"}),
        (f"{base}/seasons/1/next/", {}),
    ]


def _snapshot(league: League) -> tuple[Any, ...]:
    league.refresh_from_db()
    return (
        league.name,
        league.turn_hours,
        list(league.admins.values_list("pk", flat=True)),
        sorted(Membership.objects.values_list("pk", flat=True)),
        JoinRequest.objects.count(),
        LeagueInvitation.objects.count(),
        Mail.objects.count(),
        list(Season.objects.values_list("pk", "status", "enrolment_open")),
        Move.objects.count(),
        list(Game.objects.values_list("pk", "status", "deadline", "paused_at")),
    )


@pytest.mark.parametrize("who", ["member", "stranger", "other_admin", "anonymous"])
def test_every_admin_action_is_refused_and_changes_nothing(
    who: str,
    setting: dict[str, Any],
    league: League,
    bob: User,
    cy: User,
    dee: User,
    client: Client,
) -> None:
    person = {"member": bob, "stranger": cy, "other_admin": dee, "anonymous": None}[who]
    if person is not None:
        client.force_login(person)
    before = _snapshot(league)
    for url, data in _actions(setting, bob):
        answer = client.post(url, data)
        assert answer.status_code == 403, (who, url, answer.status_code)
        assert _snapshot(league) == before, (who, url)
    assert client.get("/leagues/vegas-nights/manage/").status_code == 403
    assert client.get("/leagues/vegas-nights/seasons/2/").status_code == 403


def test_the_league_admin_without_staff_access_does_them(
    setting: dict[str, Any], league: League, ada: User, bob: User, client: Client
) -> None:
    client.force_login(ada)
    assert client.get("/leagues/vegas-nights/manage/").status_code == 200
    for url, data in _actions(setting, bob):
        answer = client.post(url, data)
        assert answer.status_code == 302, (url, answer.status_code)
    league.refresh_from_db()
    assert league.name == "X"
    assert bob in league.admins.all()
    assert Game.objects.get(pk=setting["game"].pk).status == Game.Status.CANCELLED
    assert (
        Move.objects.filter(game=setting["game"], source="system", command__isnull=True).count()
        == 4
    )


def _heading_and_title(html: str) -> tuple[str, str]:
    h1 = re.search(r"<h1>(.*?)</h1>", html, re.S)
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert h1 and title
    return page_text(h1.group(1)).strip(), page_text(title.group(1)).strip()


@pytest.mark.parametrize(
    ("language", "heading", "title", "missing"),
    [
        ("en", "You may not do this", "Not allowed · Lords", "No such league"),
        ("fr", "Tu ne peux pas faire ceci", "Non autorisé · Lords", "Cette ligue n'existe pas"),
    ],
)
def test_a_refusal_says_so_and_not_that_the_league_is_missing(
    language: str,
    heading: str,
    title: str,
    missing: str,
    setting: dict[str, Any],
    bob: User,
    client: Client,
) -> None:
    """Bob, a plain member, opens the admin pages: 403 under a heading that says he may not
    (it said "No such league", titled "Not found", above the right sentence)."""
    bob.language = language
    bob.save(update_fields=["language"])
    client.force_login(bob)
    for url in ("/leagues/vegas-nights/manage/", "/leagues/vegas-nights/seasons/1/"):
        answer = client.get(url)
        assert answer.status_code == 403
        assert _heading_and_title(answer.content.decode()) == (heading, title)
        assert missing not in page_text(answer.content.decode())
    gone = client.get("/leagues/no-such-league/manage/")
    assert gone.status_code == 404
    assert _heading_and_title(gone.content.decode())[0] == missing
