"""An invitation to a private game is addressed to an email: only a *verified* address of the
user counts. Someone who signs up (or adds an address) with an invited address they do not
own must not see the game, on the board page or through the API, until they confirm it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from tests.web.signing_up import fill_in, type_the_code

pytestmark = pytest.mark.django_db


def _fresh(name: str) -> str:
    """A new address for each run: allauth's rate limits (one confirmation mail per address
    every few minutes) live in the shared cache, across tests and runs."""
    return f"{name}-{uuid.uuid4().hex[:12]}@example.org"


@pytest.fixture
def invited() -> str:
    return _fresh("bob")


@pytest.fixture
def private_game(ada: User, invited: str) -> Any:
    """Ada's private game, with an invitation for ``invited`` (who has no account yet)."""
    game = services.create_game(creator=ada, game_type="vegas", seats=3, private=True)
    services.invite(game=game, by=ada, email=invited)
    return game


def _sign_up(client: Client, email: str) -> User:
    """Through allauth's own signup view, up to the code page (not yet signed in)."""
    response = fill_in(client, email, name=email.split("@")[0].title())
    assert response.status_code == 302, response.content
    return User.objects.get(email=email)


def _status(client: Client, game: Any) -> tuple[int, int]:
    """What the board page and the API answer about the game."""
    return (
        client.get(f"/games/{game.pk}/").status_code,
        client.get(f"/api/v1/games/{game.pk}/").status_code,
    )


def _confirm(client: Client, email: str) -> None:
    """Type the code allauth mailed to ``email`` on its page, as its owner does."""
    assert type_the_code(client, email).status_code == 302


def test_signing_up_with_an_invited_address_opens_nothing_until_it_is_confirmed(
    client: Client, private_game: Any, invited: str
) -> None:
    _sign_up(client, invited)
    assert "_auth_user_id" not in client.session  # not signed in before the code:
    assert _status(client, private_game) == (302, 401)  # asked to sign in, as a visitor

    _confirm(client, invited)
    assert _status(client, private_game) == (200, 200)


def test_an_added_unverified_address_opens_nothing_nor_becomes_the_login(
    client: Client, private_game: Any, invited: str
) -> None:
    mallory = _sign_up(client, _fresh("mallory"))
    _confirm(client, mallory.email)
    added = client.post("/accounts/email/", {"email": invited, "action_add": ""})
    assert added.status_code == 302, added.content
    client.post("/accounts/email/", {"email": invited, "action_primary": ""})
    mallory.refresh_from_db()
    assert mallory.email != invited  # refused: with verification mandatory, a login is verified
    assert _status(client, private_game) == (403, 403)  # it opens no private game

    _confirm(client, invited)
    assert _status(client, private_game) == (200, 200)


def test_the_game_stays_hidden_from_an_uninvited_verified_user(
    client: Client, private_game: Any
) -> None:
    cy = _fresh("cy")
    _sign_up(client, cy)
    _confirm(client, cy)
    assert _status(client, private_game) == (403, 403)


def test_a_user_created_by_the_server_counts_as_verified(
    client: Client, private_game: Any, make_user: Any, invited: str
) -> None:
    """Users made by ``create_user`` (the admin's createsuperuser, the demo seed) have their
    address recorded as verified: visiting allauth's email page does not take it back."""
    client.force_login(make_user(invited))
    assert _status(client, private_game) == (200, 200)
    assert client.get("/accounts/email/").status_code == 200
    assert _status(client, private_game) == (200, 200)
