"""Download my data (``/profile/data/`` and ``GET /api/v1/profile/data/``): one JSON file with
the profile, the games (a finished one as its record, a running one as the player's own seat
sees it: never another player's hidden information), the emails sent to the player, email
choices, tokens (never their secrets), invitations, trade offers, leagues, what the player
wrote at the tables and their notes (never another player's), webhooks and the calendar."""

from __future__ import annotations

import json
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.data import NOTIFICATION_INTERNALS
from accounts.models import User
from games import selectors, services
from games.models import Game, Seat, Webhook
from games.services import talk
from games.web.calendar import new_feed
from leagues import manage
from leagues import services as leagues
from notifications.models import Notification
from tests.api.test_hidden_information import leaks

pytestmark = pytest.mark.django_db


def _jsonable(value: Any) -> Any:
    """What a value looks like in the downloaded file."""
    from django.core.serializers.json import DjangoJSONEncoder

    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _play(game: Game, moves: int, capture: Any) -> None:
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        seat = Seat.objects.filter(game=game, to_act=True).select_related("user").first()
        assert seat is not None and seat.user is not None
        legal = selectors.game_view(game=game, user=seat.user)["legal_commands"]
        with capture(execute=True):
            services.submit_command(game=game, user=seat.user, text=legal[0]["text"])
    game.refresh_from_db()


@pytest.fixture
def played(
    ada: User, bob: User, cy: User, make_game: Any, django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """Ada in a Lords of Vegas game under way (emails sent), a finished Vegas game, a private
    game she was invited to, a league, and an API token."""
    running = make_game(ada, bob, game_type="lords-of-vegas")
    _play(running, 12, django_capture_on_commit_callbacks)
    finished = make_game(ada, bob)
    services.resign(game=finished, user=bob)
    private = make_game(bob, ada, private=True, start=False)
    league = leagues.create_league(creator=bob, name="Night Owls", game_type="vegas")
    leagues.join_league(league=league, user=ada)
    AuthToken.objects.create(user=ada)
    assert Notification.objects.filter(user=ada).exists() and mail.outbox
    return {"running": running, "finished": finished, "private": private, "league": league}


def _download(user: User) -> tuple[Any, dict[str, Any]]:
    client = Client()
    client.force_login(user)
    response = client.get("/profile/data/")
    return response, json.loads(response.content)


def test_it_is_a_file_to_save(played: dict[str, Any], ada: User) -> None:
    response, _data = _download(ada)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and f"lords-data-{ada.pk}-" in disposition
    assert "ada" not in disposition


def test_the_settings_page_links_to_it(client: Client, ada: User) -> None:
    client.force_login(ada)
    html = client.get("/profile/").content.decode()
    assert 'href="/profile/data/" download' in html


def test_it_holds_the_profile_the_games_and_the_rest(
    played: dict[str, Any], ada: User, bob: User
) -> None:
    _response, data = _download(ada)
    assert data["profile"]["email"] == "ada@example.org" and data["profile"]["id"] == ada.pk
    assert data["email_preferences"] == {
        "turn_emails": True,
        "reminders": True,
        "unsubscribed_at": None,
        "digest": False,
        "digest_hour": 8,
        "quiet_from": None,
        "quiet_until": None,
        "remind_before": [],
        "muted_games": [],
    }
    games = {g["id"]: g for g in data["games"]}
    running, finished, private = played["running"], played["finished"], played["private"]
    assert set(games) == {running.pk, finished.pk, private.pk}
    assert games[finished.pk]["record"] == _jsonable(services.export_game(game=finished))
    assert games[running.pk]["seat"]["order"] == running.seats.get(user=ada).order
    assert [i["game"] for i in data["invitations"]["received"]] == [private.pk]
    assert data["leagues"]["memberships"][0]["league"] == played["league"].slug
    assert data["games_created"] == sorted([running.pk, finished.pk])


def test_a_running_game_is_as_her_own_seat_sees_it(
    played: dict[str, Any], ada: User, bob: User
) -> None:
    response, data = _download(ada)
    running = Game.objects.get(pk=played["running"].pk)
    entry = next(g for g in data["games"] if g["id"] == running.pk)
    assert entry["view"] == _jsonable(selectors.game_view(game=running, user=ada))
    assert entry["view"] != _jsonable(selectors.game_view(game=running, user=bob))
    assert entry["moves"] == _jsonable(selectors.moves_since(game=running, user=ada))
    assert "record" not in entry
    assert running.state is not None and len(running.state["deck"]) >= 6
    secrets = {"seed": running.seed, "hidden": {"deck": list(running.state["deck"])}}
    assert leaks(response.content, secrets) == []


def test_it_holds_the_emails_sent_to_her_and_only_those(played: dict[str, Any], ada: User) -> None:
    _response, data = _download(ada)
    rows = Notification.objects.filter(user=ada)
    assert len(data["emails"]) == rows.count() > 0
    fields = {f.name for f in Notification._meta.concrete_fields} - NOTIFICATION_INTERNALS
    assert {"kind", "game", "key", "status", "created_at", "sent_at", "message_id"} <= fields
    for email in data["emails"]:
        assert set(email) == fields  # every field, so a field added later shows up too
    sent_to_her = [m for m in mail.outbox if m.to == ["ada@example.org"]]
    if "subject" in fields:
        assert {e["subject"] for e in data["emails"]} == {m.subject for m in sent_to_her}
    assert {e["message_id"] for e in data["emails"]} == {
        m.extra_headers.get("Message-ID") for m in sent_to_her
    }


def test_tokens_are_listed_without_their_secrets(played: dict[str, Any], ada: User) -> None:
    response, data = _download(ada)
    token = AuthToken.objects.get(user=ada)
    assert data["api_tokens"] == [
        {"token_key": token.token_key, "created": _jsonable(token.created), "expiry": None}
    ]
    assert token.digest not in response.content.decode()


def test_the_api_gives_the_same_document(played: dict[str, Any], ada: User) -> None:
    _response, web = _download(ada)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=ada)[1]}")
    response = api.get("/api/v1/profile/data/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    answer = json.loads(response.content)
    for document in (web, answer):
        document.pop("exported_at")
        document.pop("api_tokens")  # the API call made a second one
    assert answer == web


def test_it_needs_a_sign_in(client: Client) -> None:
    response = client.get("/profile/data/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert APIClient().get("/api/v1/profile/data/").status_code == 401


@pytest.fixture
def talked(ada: User, bob: User, cy: User, make_game: Any) -> dict[str, Any]:
    """A game of three where Ada, Bob and Cy talk and keep notes; Ada's webhook, calendar
    address, request to join a league by approval and invitation to another (emailed)."""
    game = make_game(ada, bob, cy)
    order = {u.pk: game.seats.get(user=u).order for u in (ada, bob, cy)}
    talk.say(game=game, user=ada, text="hello table")
    talk.say(game=game, user=ada, text="ally, bob?", to=order[bob.pk])
    talk.say(game=game, user=bob, text="cy, let us betray her", to=order[cy.pk])
    talk.save_note(game=game, user=ada, text="bob bluffs on the Strip")
    talk.save_note(game=game, user=cy, text="cy's secret plan")
    hook = Webhook.objects.create(user=ada, url="https://hooks.example.org/ada", secret="whsec_S3")
    feed = new_feed(ada)
    closed = leagues.create_league(creator=bob, name="By Approval", game_type="vegas", open=False)
    manage.ask_to_join(league=closed, user=ada)
    invited = leagues.create_league(creator=bob, name="Night Owls", game_type="vegas")
    to_ada = manage.invite(league=invited, by=bob, email="ada@example.org")
    manage.invite(league=invited, by=bob, email="cy@example.org")
    return {
        "game": game,
        "order": order,
        "hook": hook,
        "feed": feed,
        "closed": closed,
        "invited": invited,
        "to_ada": to_ada,
    }


def test_it_holds_what_she_wrote_her_notes_hooks_and_league_mail(
    talked: dict[str, Any], ada: User, bob: User
) -> None:
    """QA: the file left out her notes, her chat messages, her webhooks, her calendar
    address, her league requests, invitations and league emails."""
    game, order = talked["game"], talked["order"]
    talk.say(game=game, user=bob, text="yes, ada", to=order[ada.pk])
    response, data = _download(ada)
    assert [(m["game"], m["seat"], m["to"], m["text"]) for m in data["messages"]] == [
        (game.pk, order[ada.pk], None, "hello table"),
        (game.pk, order[ada.pk], order[bob.pk], "ally, bob?"),
        (game.pk, order[bob.pk], order[ada.pk], "yes, ada"),  # written to her: hers too
    ]
    assert [(n["game"], n["text"]) for n in data["notes"]] == [(game.pk, "bob bluffs on the Strip")]
    assert [(h["url"], h["active"]) for h in data["webhooks"]] == [
        ("https://hooks.example.org/ada", True)
    ]
    assert data["calendar_feed"] == {"created_at": _jsonable(talked["feed"].created_at)}
    mine = data["leagues"]
    assert [r["league"] for r in mine["join_requests"]] == [talked["closed"].slug]
    assert [(i["league"], i["token"]) for i in mine["invitations"]["received"]] == [
        (talked["invited"].slug, talked["to_ada"].token)
    ]
    assert [(m["kind"], m["to"], m["league"]) for m in mine["emails"]] == [
        ("invitation", "ada@example.org", talked["invited"].pk)
    ]
    text = response.content.decode()
    for secret in ("let us betray her", "cy's secret plan", "whsec_S3", talked["feed"].token):
        assert secret not in text  # never another player's hidden words, never a credential
    assert "cy@example.org" not in text


def test_an_unconfirmed_address_gets_nothing_sent_to_it(bob: User, make_user: Any) -> None:
    """Anyone may sign up with an address they do not own and be signed in at once: the
    file must not hand them the invitations (and their tokens) nor the emails sent to that
    address, and deleting such an account must not delete them (found by review)."""
    from accounts.deletion import delete_account
    from games.models import Invitation
    from leagues.models import LeagueInvitation
    from leagues.models import Mail as LeagueMail

    game = services.create_game(creator=bob, game_type="vegas", seats=3, private=True)
    invited = services.invite(game=game, by=bob, email="alice@example.net")
    league = leagues.create_league(creator=bob, name="Closed Door", game_type="vegas", open=False)
    manage.invite(league=league, by=bob, email="alice@example.net")
    to_alice = LeagueInvitation.objects.get(email="alice@example.net")
    assert LeagueMail.objects.filter(to="alice@example.net").exists()

    squatter = make_user("alice@example.net")
    EmailAddress.objects.filter(user=squatter).update(verified=False)  # as a sign-up leaves it
    _, data = _download(squatter)
    file = json.dumps(data)
    for token in (invited.token, to_alice.token):
        assert token not in file, file[max(file.find(token) - 300, 0) : file.find(token) + 40]
    assert data["invitations"]["received"] == [] and data["leagues"]["emails"] == []

    delete_account(user=squatter)
    assert Invitation.objects.filter(pk=invited.pk, email="alice@example.net").exists()
    assert LeagueInvitation.objects.filter(pk=to_alice.pk, email="alice@example.net").exists()
    assert LeagueMail.objects.filter(to="alice@example.net").exists()


def test_it_holds_the_league_invitations_by_her_name(ada: User, bob: User) -> None:
    """An invitation by a player's name keeps no address (decision 0028): the file left
    out those she received, and showed the inviter's copy with an empty address (noticed
    by the change that brought them)."""
    User.objects.filter(pk=ada.pk).update(display_name="Ada")
    league = leagues.create_league(creator=bob, name="Night Owls", game_type="vegas")
    manage.take_in(league=league, by=bob, who="Ada")
    [invitation] = league.invitations.all()
    _, hers = _download(ada)
    assert [
        (i["league"], i["email"], i["player"], i["token"])
        for i in hers["leagues"]["invitations"]["received"]
    ] == [(league.slug, None, "Ada", invitation.token)]
    _, his = _download(bob)
    sent = his["leagues"]["invitations"]["sent"]
    assert [(i["league"], i["email"], i["player"]) for i in sent] == [(league.slug, None, "Ada")]
    assert "token" not in sent[0]
