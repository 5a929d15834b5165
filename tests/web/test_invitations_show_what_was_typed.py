"""An invitation shows the inviter what they typed: a player invited by name is that name
everywhere (the table, a refusal, "Download my data"), never the address behind it, and an
address typed is that address, never the account behind it (docs/decisions/0024)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game, Invitation
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def cy_by_name(dee: User, cy: User, django_capture_on_commit_callbacks: Any) -> Game:
    """Dee's private game, where she invited Cy by his name on the table page."""
    cy.display_name = "Cyrano"
    cy.save()
    game = services.create_game(creator=dee, game_type="vegas", seats=3, private=True)
    with django_capture_on_commit_callbacks(execute=True):
        _client(dee).post(f"/games/{game.pk}/invitations/", {"who": "cyrano"})
    return game


def test_a_player_invited_by_name_is_emailed_at_their_own_address(
    cy_by_name: Game, cy: User
) -> None:
    (sent,) = [m for m in mail.outbox if "invites you" in m.subject]
    assert sent.to == [cy.email]


def test_the_table_shows_the_inviter_the_name(dee: User, cy: User, cy_by_name: Game) -> None:
    page = page_text(_client(dee).get(f"/games/{cy_by_name.pk}/").content.decode())
    assert "Cyrano — no answer yet" in page
    assert cy.email not in page


def test_withdrawing_twice_names_the_player_not_their_address(
    dee: User, cy: User, cy_by_name: Game
) -> None:
    invitation = Invitation.objects.get(game=cy_by_name)
    url = f"/games/{cy_by_name.pk}/invitations/{invitation.pk}/withdraw/"
    _client(dee).post(url)
    page = page_text(_client(dee).post(url, follow=True).content.decode())
    assert "The invitation of Cyrano is already answered or withdrawn" in page
    assert cy.email not in page


def test_my_data_names_the_player_not_their_address(dee: User, cy: User, cy_by_name: Game) -> None:
    response = _client(dee).get("/profile/data/")
    assert cy.email not in response.content.decode()
    (sent,) = json.loads(response.content)["invitations"]["sent"]
    assert (sent["game"], sent["email"], sent["player"]) == (cy_by_name.pk, None, "Cyrano")


def test_the_invitee_s_link_names_them_and_they_answer_it(cy: User, cy_by_name: Game) -> None:
    invitation = Invitation.objects.get(game=cy_by_name)
    client = _client(cy)
    page = page_text(client.get(f"/games/invitations/{invitation.token}/").content.decode())
    assert "invited Cyrano." in page
    client.post(f"/games/invitations/{invitation.token}/accept/")
    assert cy_by_name.seats.filter(user=cy).exists()


def test_an_address_typed_is_shown_as_typed_not_as_its_account(dee: User, bob: User) -> None:
    """Bob's address is a verified one of his account: showing "Bob" would tell Dee that the
    address has an account here, and whose it is."""
    bob.display_name = "Bob"
    bob.save()
    game = services.create_game(creator=dee, game_type="vegas", seats=3)
    _client(dee).post(f"/games/{game.pk}/invitations/", {"who": bob.email})
    page = page_text(_client(dee).get(f"/games/{game.pk}/").content.decode())
    assert f"{bob.email} — no answer yet" in page
    assert "Bob — " not in page
