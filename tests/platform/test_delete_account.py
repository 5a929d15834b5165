"""Deleting an account (the settings page's "delete my account", the API's ``DELETE
/api/v1/profile/``, the admin's action): the running game is resigned and plays on with a
bot, every game still replays, the person's name and address are nowhere any more (pages,
API answers, game records), nobody can sign in as them, and the address can sign up again."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import User
from games import selectors, services
from games.models import Game, Invitation, PlayerNote, Seat
from games.services import talk
from leagues import manage
from leagues import services as leagues
from leagues.models import JoinRequest, LeagueInvitation, Membership
from leagues.models import Mail as LeagueMail
from notifications.models import EmailPreference, Notification
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NAME, EMAIL = "Zebulon Quux", "zq-private-9@example.org"
TRACES = ("zebulon", "quux", "zq-private-9")
"""Every piece of the person that must be gone: the display name and the address."""


def _play(game: Game, moves: int, capture: Callable[..., Any]) -> Game:
    """Whoever the game waits on plays their first legal command (emails go out after each
    commit, as in production), ``moves`` times or until the end."""
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = Seat.objects.filter(game=game, to_act=True, resigned=False).first()
        assert seat is not None and seat.user is not None
        view = selectors.game_view(game=game, user=seat.user)
        with capture(execute=True):
            services.submit_command(
                game=game, user=seat.user, text=view["legal_commands"][0]["text"]
            )
    game.refresh_from_db()
    return game


def _traces(text: str) -> list[str]:
    lowered = text.lower()
    return [trace for trace in TRACES if trace in lowered]


def _others_emails_name(zed: User) -> list[str]:
    """Traces of Zed in the stored copies of the other players' emails."""
    emails = Notification.objects.exclude(user=zed).values_list("subject", "body_text")
    return _traces(str(list(emails)))


def _token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def _basic(email: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{email}:{password}".encode()).decode()


@pytest.fixture
def zed(make_user: Callable[..., User]) -> User:
    user = make_user(EMAIL, display_name=NAME)
    EmailAddress.objects.update_or_create(
        user=user, email=EMAIL, defaults={"verified": True, "primary": True}
    )
    return user


@pytest.fixture
def world(
    zed: User, bob: User, cy: User, make_game: Any, django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """Zed's games: one of Lords of Vegas under way (three players), two finished (one of
    them a league game), one waiting for players; a league with Zed in it; emails sent."""
    capture = django_capture_on_commit_callbacks
    running = _play(make_game(bob, zed, cy, game_type="lords-of-vegas"), 8, capture)
    assert running.status == Game.Status.ACTIVE
    finished = _play(make_game(zed, bob), 10_000, capture)
    league = leagues.create_league(creator=bob, name="Night Owls", game_type="vegas")
    season = leagues.open_season(league=league, by=bob)
    for user in (zed, bob):
        leagues.join_league(league=league, user=user)
        leagues.enter_season(season=season, user=user)
    leagues.start_season(season=season, by=bob, seed="night-owls")
    league_game = _play(Game.objects.get(season_game__season=season), 10_000, capture)
    waiting = make_game(zed, start=False)
    assert {finished.status, league_game.status} == {Game.Status.FINISHED}
    assert Notification.objects.filter(user=zed).exists(), "no email was sent to Zed"
    return {
        "running": running,
        "finished": [finished, league_game],
        "waiting": waiting,
        "league": league,
        "token": _token_client(zed),
        "games": [running, finished, league_game],
    }


@pytest.fixture
def quick_world(zed: User, bob: User, cy: User, make_game: Any) -> dict[str, Any]:
    """The same kinds of games without playing them through (the doors' tests): finished
    games ended by Bob's resignation."""
    running = make_game(bob, zed, cy, game_type="lords-of-vegas")
    finished = [make_game(zed, bob), make_game(bob, zed)]
    for game in finished:
        services.resign(game=game, user=bob)
    make_game(zed, start=False)
    return {"running": running, "token": _token_client(zed), "games": [running, *finished]}


def _everything_bob_sees(world: dict[str, Any], bob: User) -> dict[str, str]:
    """Every page and API answer about those games, as another player and as a visitor."""
    seen: dict[str, str] = {}
    web, visitor, api = Client(), Client(), _token_client(bob)
    web.force_login(bob)
    pages = ["/", "/games/", "/leagues/", f"/leagues/{world['league'].slug}/"]
    pages += [f"/games/{game.pk}/" for game in world["games"]]
    for url in pages:
        for who, client in (("bob", web), ("visitor", visitor)):
            response = client.get(url)
            assert who == "visitor" or response.status_code == 200, url
            seen[f"{who} {url}"] = response.content.decode()
    api_urls = ["/api/v1/games/", "/api/v1/leagues/"]
    for game in world["games"]:
        base = f"/api/v1/games/{game.pk}/"
        api_urls += [base, f"{base}moves/", f"{base}export/"]
    for url in api_urls:
        answer = api.get(url)
        assert answer.status_code == 200, (url, answer.content)
        seen[f"api {url}"] = answer.content.decode()
    for game in world["games"]:
        seen[f"record {game.pk}"] = json.dumps(services.export_game(game=game))
    return seen


def test_a_deleted_player_is_gone_and_their_games_stay_whole(
    world: dict[str, Any], zed: User, bob: User, client: Client
) -> None:
    before = _everything_bob_sees(world, bob)
    assert any(_traces(text) for text in before.values()), "the scan would not see the name"
    assert _others_emails_name(zed), "the scan would not see the name in Bob's and Cy's emails"

    client.force_login(zed)
    answer = client.post("/profile/delete/", {"password": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == "/profile/deleted/?language=en"
    assert "Your account is deleted" in client.get(answer["Location"]).content.decode()
    assert client.get("/profile/").status_code == 302  # signed out

    running = Game.objects.get(pk=world["running"].pk)
    seat = running.seats.get(user=zed)
    assert running.status == Game.Status.ACTIVE and seat.resigned and seat.bot
    assert not Seat.objects.filter(game=world["waiting"], user=zed).exists()
    for game in world["games"]:
        verification = services.verify_game(game=game)
        assert verification.ok, verification.problems

    after = _everything_bob_sees(world, bob)
    found = {where: _traces(text) for where, text in after.items() if _traces(text)}
    assert found == {}
    assert "former player" in after[f"bob /games/{running.pk}/"]

    zed.refresh_from_db()
    assert not zed.is_active and not zed.has_usable_password() and zed.display_name == ""
    assert not AuthToken.objects.filter(user=zed).exists()
    assert not EmailAddress.objects.filter(email__iexact=EMAIL).exists()
    assert not Notification.objects.filter(user=zed).exists()
    assert not EmailPreference.objects.filter(user=zed).exists()
    assert not Membership.objects.filter(user=zed).exists()
    assert not _others_emails_name(zed)  # their stored copies say "former player"


def test_nobody_signs_in_as_them_and_no_email_reaches_them(
    world: dict[str, Any], zed: User, django_capture_on_commit_callbacks: Any
) -> None:
    from accounts.deletion import delete_account

    session = Client()
    session.force_login(zed)
    delete_account(user=zed)

    assert session.get("/profile/").status_code == 302  # the open session ended
    web = Client()
    login = web.post("/accounts/login/", {"login": EMAIL, "password": PASSWORD})
    assert login.status_code == 200 and "_auth_user_id" not in web.session
    anonymous = APIClient()
    anonymous.credentials(HTTP_AUTHORIZATION=_basic(EMAIL, PASSWORD))
    assert anonymous.post("/api/v1/tokens/").status_code == 401
    assert world["token"].get("/api/v1/games/").status_code == 401

    mail.outbox.clear()
    _play(world["running"], 30, django_capture_on_commit_callbacks)
    assert mail.outbox, "the game went on without sending anyone an email"
    assert not [m for m in mail.outbox if _traces(" ".join(m.to) + m.subject + m.body)]


def test_the_address_can_sign_up_again(quick_world: dict[str, Any], zed: User) -> None:
    from accounts.deletion import delete_account

    delete_account(user=zed)
    client = Client()
    answer = client.post(
        "/accounts/signup/",
        {
            "email": EMAIL,
            "password1": "another-long-pass-77",
            "password2": "another-long-pass-77",
            "display_name": "Zed again",
        },
    )
    assert answer.status_code == 302, answer.content.decode()
    again = User.objects.get(email=EMAIL)
    assert again.pk != zed.pk and again.is_active
    assert not Seat.objects.filter(user=again).exists()  # a new player, not the old one


def test_a_wrong_password_deletes_nothing(quick_world: dict[str, Any], zed: User) -> None:
    client = Client()
    client.force_login(zed)
    answer = client.post("/profile/delete/", {"password": "not-it"})
    assert answer.status_code == 400
    assert "That is not your password: the account is not deleted." in answer.content.decode()
    api = quick_world["token"]
    refused = api.delete("/api/v1/profile/", {"password": "not-it"}, format="json")
    assert refused.status_code == 400
    assert "not your password" in refused.content.decode()
    zed.refresh_from_db()
    assert zed.is_active and zed.email == EMAIL
    assert not quick_world["running"].seats.get(user=zed).resigned


def test_the_confirmation_page_says_what_happens(quick_world: dict[str, Any], zed: User) -> None:
    client = Client()
    client.force_login(zed)
    html = client.get("/profile/delete/").content.decode()
    assert "You resign your game under way: a bot plays your seat to the end." in html
    assert "You leave the game that has not started yet." in html
    assert "Your 2 finished games keep their record" in html
    assert 'name="password"' in html
    assert 'href="/profile/delete/"' in client.get("/profile/").content.decode()


def test_the_api_deletes_with_the_password(quick_world: dict[str, Any], zed: User) -> None:
    api = quick_world["token"]
    assert api.delete("/api/v1/profile/", {"password": PASSWORD}, format="json").status_code == 204
    zed.refresh_from_db()
    assert zed.is_former and not zed.is_active
    assert api.get("/api/v1/me/").status_code == 401


def test_the_admin_action_deletes_the_same_way(
    quick_world: dict[str, Any], zed: User, make_user: Callable[..., User]
) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    page = client.get("/admin/accounts/user/")
    assert "Delete account (anonymise)" in page.content.decode()
    assert "delete_selected" not in page.content.decode()  # no plain delete
    assert client.get(f"/admin/accounts/user/{zed.pk}/delete/").status_code == 403
    answer = client.post(
        "/admin/accounts/user/",
        {"action": "delete_accounts", "_selected_action": [zed.pk]},
    )
    assert answer.status_code == 302
    zed.refresh_from_db()
    assert zed.is_former and not zed.is_active
    assert quick_world["running"].seats.get(user=zed).resigned
    for game in quick_world["games"]:
        assert services.verify_game(game=game).ok


def test_password_guesses_at_the_delete_page_count_towards_the_lockout(
    quick_world: dict[str, Any], zed: User, settings: Any
) -> None:
    """Guessing the password on the delete page is guessing a sign-in: counted by the
    one lockout, after which even the right password deletes nothing."""
    client = Client()
    client.force_login(zed)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/profile/delete/", {"password": "a-guess"})
    answer = client.post("/profile/delete/", {"password": PASSWORD})
    assert answer.status_code == 429 and answer["Retry-After"]
    zed.refresh_from_db()
    assert zed.is_active and not zed.is_former
    api = APIClient()
    api.force_authenticate(zed)
    refused = api.delete("/api/v1/profile/", {"password": PASSWORD}, format="json")
    assert refused.status_code == 429 and refused["Retry-After"]


def test_her_notes_go_her_table_talk_stays_under_former_player(
    zed: User, bob: User, cy: User, make_game: Any
) -> None:
    """QA: the private notes survived the deletion. They are the person's alone and go;
    what they said at the table is the others' talk too and stays, under "former player".
    The league's requests, invitation and email to the address go as well."""
    from accounts.deletion import delete_account

    game = make_game(zed, bob, cy)
    talk.say(game=game, user=zed, text="hello table")
    talk.save_note(game=game, user=zed, text="bob bluffs")
    talk.save_note(game=game, user=cy, text="cy's plan")
    closed = leagues.create_league(creator=bob, name="By Approval", game_type="vegas", open=False)
    manage.ask_to_join(league=closed, user=zed)
    manage.invite(league=closed, by=bob, email=EMAIL)
    waiting = make_game(bob, cy, seats=3, start=False)
    by_name = services.invite_player(game=waiting, by=bob, who=zed.name)
    owls = leagues.create_league(creator=bob, name="Night Owls", game_type="vegas")
    manage.take_in(league=owls, by=bob, who=zed.name)

    delete_account(user=zed)

    assert not PlayerNote.objects.filter(seat__user=zed).exists()
    assert talk.note_of(game=game, user=cy) == "cy's plan"
    chat = _token_client(bob).get(f"/api/v1/games/{game.pk}/chat/")
    assert [(m["author_name"], m["text"]) for m in chat.json()] == [
        ("former player", "hello table")
    ]
    assert not JoinRequest.objects.filter(user=zed).exists()
    assert not LeagueInvitation.objects.filter(email__iexact=EMAIL).exists()
    assert not LeagueMail.objects.filter(to__iexact=EMAIL).exists()
    # An invitation by name (it keeps no address) goes too (found by review).
    assert not Invitation.objects.filter(pk=by_name.pk).exists()
    # So does a league's (decision 0028; noticed by the change that brought them).
    assert not LeagueInvitation.objects.filter(invitee=zed).exists()


def test_the_goodbye_page_is_in_the_players_language(make_user: Callable[..., User]) -> None:
    """QA: once the account is deleted the session is over, so the last page came in the
    browser's language, not the player's."""
    elise = make_user("elise", language="it")
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(elise)

    answer = browser.post("/profile/delete/", {"password": PASSWORD}, follow=True)

    html = answer.content.decode()
    assert answer.status_code == 200 and "<h1>Il tuo account è stato eliminato</h1>" in html
    assert answer["Content-Language"] == "it"
    assert "Your account is deleted" not in html


def test_the_goodbye_page_keeps_the_language_the_player_chose_by_cookie(
    make_user: Callable[..., User],
) -> None:
    """The language cookie wins over the saved language on every page (review): the last
    page keeps it too."""
    from django.conf import settings

    fabio = make_user("fabio", language="en")
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    browser.force_login(fabio)

    answer = browser.post("/profile/delete/", {"password": PASSWORD}, follow=True)

    assert "<h1>Il tuo account è stato eliminato</h1>" in answer.content.decode()
