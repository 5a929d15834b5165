"""An invitation to a private game is addressed to an email: only a *verified* address of the
user counts. Someone who signs up (or adds an address) with an invited address they do not
own must not see the game, on the board page or through the API, until they confirm it."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from games import services

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password-9"


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
    """Through allauth's own signup view (email verification is optional: signed in at once)."""
    response = client.post(
        "/accounts/signup/",
        {
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": email.split("@")[0].title(),
        },
    )
    assert response.status_code == 302, response.content
    return User.objects.get(email=email)


def _status(client: Client, game: Any) -> tuple[int, int]:
    """What the board page and the API answer about the game."""
    return (
        client.get(f"/games/{game.pk}/").status_code,
        client.get(f"/api/v1/games/{game.pk}/").status_code,
    )


def _confirm(client: Client, email: str) -> None:
    """Follow the confirmation link allauth mailed to ``email`` (the page, then its button)."""
    sent = [m for m in mail.outbox if email in m.to]
    assert sent, f"no confirmation mail to {email}"
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", str(sent[-1].body))
    assert link is not None, sent[-1].body
    assert client.get(link.group(1)).status_code == 200
    assert client.post(link.group(1)).status_code == 302


def test_signing_up_with_an_invited_address_opens_nothing_until_it_is_confirmed(
    client: Client, private_game: Any, invited: str
) -> None:
    _sign_up(client, invited)
    assert _status(client, private_game) == (403, 403)

    _confirm(client, invited)
    assert _status(client, private_game) == (200, 200)


def test_an_added_unverified_primary_address_opens_nothing(
    client: Client, private_game: Any, invited: str
) -> None:
    mallory = _sign_up(client, _fresh("mallory"))
    added = client.post("/accounts/email/", {"email": invited, "action_add": ""})
    assert added.status_code == 302, added.content
    primary = client.post("/accounts/email/", {"email": invited, "action_primary": ""})
    assert primary.status_code == 302, primary.content
    mallory.refresh_from_db()
    assert mallory.email == invited  # allauth let her make it her login...
    assert _status(client, private_game) == (403, 403)  # ...but it opens no private game

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
