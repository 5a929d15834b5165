"""A sign-in with an address never confirmed (an account from before verification was
mandatory, or a sign-up whose code was not typed) is asked for a code mailed to it, then goes
where it was going; an account the server made is verified and signs in as before
(docs/decisions/0034-a-sign-up-tells-nothing.md)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from tests.conftest import PASSWORD
from tests.web.signing_up import type_the_code

pytestmark = pytest.mark.django_db


def _sign_in(client: Client, email: str, then: str) -> Any:
    return client.post(f"/accounts/login/?next={then}", {"login": email, "password": PASSWORD})


def test_an_unconfirmed_address_types_a_code_then_goes_on(make_user: Any) -> None:
    player = make_user(f"old-{uuid.uuid4().hex[:12]}@example.org")
    EmailAddress.objects.filter(user=player).update(verified=False)  # as before 0034
    client = Client()
    asked = _sign_in(client, player.email, "/games/")
    assert asked["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session
    assert type_the_code(client, player.email)["Location"] == "/games/"
    assert client.session["_auth_user_id"] == str(player.pk)
    assert EmailAddress.objects.get(user=player).verified


def test_an_account_made_by_the_server_signs_in_at_once(make_user: Any) -> None:
    player = make_user(f"made-{uuid.uuid4().hex[:12]}@example.org")
    client = Client()
    assert _sign_in(client, player.email, "/games/")["Location"] == "/games/"
    assert client.session["_auth_user_id"] == str(player.pk)
