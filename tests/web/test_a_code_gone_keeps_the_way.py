"""A sign-up's code that expired or was mistyped three times sends the newcomer to sign in:
they still go where their link was taking them (an invitation, a public game) once they have
signed in and typed the new code (docs/decisions/0034-a-sign-up-tells-nothing.md)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from tests.web.signing_up import PASSWORD, fill_in, type_the_code

pytestmark = pytest.mark.django_db

THEN = "/games/new/"


def _newcomer(client: Client) -> str:
    email = f"new-{uuid.uuid4().hex[:12]}@example.org"
    filled = fill_in(client, email, then=THEN, name=f"N{uuid.uuid4().hex[:10]}")
    assert filled["Location"].startswith("/accounts/confirm-email/")
    return email


def _signs_in_and_confirms(client: Client, sent_to: Any, email: str) -> None:
    assert sent_to.status_code == 302
    login = sent_to["Location"]
    assert login.startswith("/accounts/login/")
    signed = client.post(login, {"login": email, "password": PASSWORD})
    assert signed.status_code == 302, signed.content
    assert signed["Location"].startswith("/accounts/confirm-email/")
    assert type_the_code(client, email)["Location"] == THEN


def test_three_wrong_codes_then_sign_in_goes_where_the_link_went() -> None:
    client = Client()
    email = _newcomer(client)
    answer: Any = None
    for _ in range(3):
        answer = client.post("/accounts/confirm-email/", {"code": "AAAA-AAAA"})
    # (a new code is mailed at most every few minutes: allauth's limit on sending them)
    with time_machine.travel(timezone.now() + timedelta(minutes=10)):
        _signs_in_and_confirms(client, answer, email)


def test_a_code_that_expired_then_sign_in_goes_where_the_link_went() -> None:
    client = Client()
    email = _newcomer(client)
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        answer = client.get("/accounts/confirm-email/")
        _signs_in_and_confirms(client, answer, email)


def test_once_used_the_sign_ups_way_leads_no_later_sign_in() -> None:
    client = Client()
    email = _newcomer(client)
    assert type_the_code(client, email)["Location"] == THEN
    client.post("/accounts/logout/")
    signed = client.post("/accounts/login/", {"login": email, "password": PASSWORD})
    assert signed["Location"] == "/"
