"""Password guessing: failed sign-ins are counted per account and per address at every door
that checks a password (the web sign-in, HTTP Basic at the token endpoint, the admin's
sign-in), under one policy (django-axes, ``docs/decisions/0007-sign-in-lockout.md``). Once
locked, every door answers 429 with ``Retry-After``, even to the right password, until the
lock expires."""

from __future__ import annotations

import base64
import itertools
import uuid
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import User
from tests.api.helpers import API, Player, assert_error, body
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

RIGHT = "a-long-password-1"  # the password of the API tests' players (tests.api.helpers)
LIMIT: int = settings.SIGN_IN_FAILURE_LIMIT
LOCKOUT = timedelta(minutes=settings.SIGN_IN_LOCKOUT_MINUTES)
_hosts = itertools.count(1)


def _address() -> str:
    """An address of its own for each test (documentation range, never contacted): allauth's
    own request rate per address lives in the shared cache, across tests and runs."""
    return f"2001:db8:{uuid.uuid4().hex[:4]}::{next(_hosts):x}"


def _token(client: APIClient, email: str, password: str, address: str) -> Any:
    """``POST /api/v1/tokens/`` with HTTP Basic, from ``address``."""
    basic = base64.b64encode(f"{email}:{password}".encode()).decode()
    return client.post(f"{API}/tokens/", HTTP_AUTHORIZATION=f"Basic {basic}", REMOTE_ADDR=address)


def _web_sign_in(client: Client, email: str, password: str, address: str) -> Any:
    """allauth's sign-in form, from ``address``."""
    return client.post(
        "/accounts/login/", {"login": email, "password": password}, REMOTE_ADDR=address
    )


def _assert_locked_api(response: Any) -> int:
    """429 in the API's error shape, with the seconds to wait (header and detail)."""
    error = assert_error(response, 429, "locked_out")
    wait = int(response["Retry-After"])
    assert 0 < wait <= LOCKOUT.total_seconds()
    assert error["detail"]["retry_after"] == wait
    assert "Too many failed sign-ins" in error["message"]
    return wait


def _assert_locked_page(response: Any) -> None:
    assert response.status_code == 429, response.content
    assert 0 < int(response["Retry-After"]) <= LOCKOUT.total_seconds()
    text = page_text(response.content.decode())
    assert "Too many failed sign-ins" in text
    assert "_auth_user_id" not in response.wsgi_request.session  # not signed in


def _lock_by_token_endpoint(email: str, address: str) -> None:
    client = APIClient()
    for _ in range(LIMIT - 1):
        assert_error(_token(client, email, "wrong", address), 401, "authentication_failed")
    _assert_locked_api(_token(client, email, "wrong", address))


def test_repeated_wrong_passwords_at_the_token_endpoint_end_in_429(alice: Player) -> None:
    address = _address()
    _lock_by_token_endpoint(alice.label, address)
    # Locked: the right password gets no token either, and more guesses change nothing.
    for _ in range(5):
        _assert_locked_api(_token(APIClient(), alice.label, RIGHT, address))
        _assert_locked_api(_token(APIClient(), alice.label, "wrong", address))
    assert AuthToken.objects.filter(user=alice.user).count() == 1  # the fixture's own


def test_the_account_is_locked_from_every_address(alice: Player) -> None:
    client = APIClient()
    for _ in range(LIMIT - 1):
        assert_error(_token(client, alice.label, "wrong", _address()), 401)
    _assert_locked_api(_token(client, alice.label, "wrong", _address()))
    _assert_locked_api(_token(client, alice.label, RIGHT, _address()))
    # The email is counted whatever its case.
    _assert_locked_api(_token(client, alice.label.upper(), RIGHT, _address()))


def test_a_lock_earned_at_the_web_sign_in_blocks_the_token_endpoint(alice: Player) -> None:
    web, address = Client(), _address()
    for _ in range(LIMIT - 1):
        refused = _web_sign_in(web, alice.label, "wrong", address)
        assert refused.status_code == 200  # the form again, with its error
    _assert_locked_page(_web_sign_in(web, alice.label, "wrong", address))
    _assert_locked_page(_web_sign_in(web, alice.label, RIGHT, address))
    _assert_locked_api(_token(APIClient(), alice.label, RIGHT, _address()))


def test_a_lock_earned_at_the_token_endpoint_blocks_the_web_sign_in(alice: Player) -> None:
    _lock_by_token_endpoint(alice.label, _address())
    _assert_locked_page(_web_sign_in(Client(), alice.label, RIGHT, _address()))


def test_the_admin_sign_in_counts_too(make_user: Any) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    web, address = Client(), _address()
    for _ in range(LIMIT - 1):
        refused = web.post(
            "/admin/login/", {"username": admin.email, "password": "wrong"}, REMOTE_ADDR=address
        )
        assert refused.status_code == 200
    locked = web.post(
        "/admin/login/", {"username": admin.email, "password": "wrong"}, REMOTE_ADDR=address
    )
    _assert_locked_page(locked)
    _assert_locked_api(_token(APIClient(), admin.email, "a-long-test-password", _address()))


def test_many_accounts_guessed_from_one_address_lock_the_address(
    player_factory: Any,
) -> None:
    address, client = _address(), APIClient()
    victims = [player_factory() for _ in range(LIMIT)]
    for victim in victims[:-1]:
        assert_error(_token(client, victim.label, "wrong", address), 401)
    _assert_locked_api(_token(client, victims[-1].label, "wrong", address))
    # Anyone else from that address is refused too, even with the right password...
    newcomer = player_factory()
    _assert_locked_api(_token(client, newcomer.label, RIGHT, address))
    # ...while the accounts themselves are not locked elsewhere (one failure each).
    created = _token(client, newcomer.label, RIGHT, _address())
    assert created.status_code == 201, created.content
    assert _token(client, victims[0].label, RIGHT, _address()).status_code == 201


def test_the_lock_expires(alice: Player) -> None:
    address = _address()
    _lock_by_token_endpoint(alice.label, address)
    wait = _assert_locked_api(_token(APIClient(), alice.label, RIGHT, address))
    with time_machine.travel(timezone.now() + timedelta(seconds=wait - 30), tick=False):
        _assert_locked_api(_token(APIClient(), alice.label, RIGHT, address))
    with time_machine.travel(timezone.now() + timedelta(seconds=wait + 1), tick=False):
        created = _token(APIClient(), alice.label, RIGHT, address)
        assert created.status_code == 201, created.content
        token = body(created)["token"]
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert body(fresh.get(f"{API}/me/"))["email"] == alice.label


def test_failures_under_the_limit_lock_nothing(alice: Player) -> None:
    address = _address()
    for _ in range(LIMIT - 1):
        assert_error(_token(APIClient(), alice.label, "wrong", address), 401)
    assert _token(APIClient(), alice.label, RIGHT, address).status_code == 201
    assert User.objects.get(pk=alice.user.pk).is_active


@pytest.mark.parametrize(
    ("header", "value"),
    [("HTTP_USER_AGENT", "a\x00b"), ("HTTP_ACCEPT", "application/json, a\x00b")],
)
def test_a_nul_in_a_header_is_still_a_counted_failure(
    alice: Player, header: str, value: str
) -> None:
    """axes keeps the User-Agent and Accept headers of a failure, and PostgreSQL refuses a
    NUL in text: each guess was a 500, never counted, so guessing was never locked."""
    address, client = _address(), APIClient()
    basic = base64.b64encode(f"{alice.label}:wrong".encode()).decode()
    guess: dict[str, Any] = {
        "HTTP_AUTHORIZATION": f"Basic {basic}",
        "REMOTE_ADDR": address,
        header: value,
    }
    for _ in range(LIMIT - 1):
        assert_error(client.post(f"{API}/tokens/", **guess), 401, "authentication_failed")
    assert AccessAttempt.objects.get(ip_address=address).failures_since_start == LIMIT - 1
    _assert_locked_api(client.post(f"{API}/tokens/", **guess))
    _assert_locked_api(_token(client, alice.label, RIGHT, address))


def test_a_nul_in_a_header_is_counted_at_the_web_and_admin_sign_ins(
    alice: Player, make_user: Any
) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    web, address = Client(), _address()
    nul: dict[str, Any] = {
        "REMOTE_ADDR": address,
        "HTTP_USER_AGENT": "a\x00b",
        "HTTP_ACCEPT": "\x00",
    }
    refused = web.post("/accounts/login/", {"login": alice.label, "password": "wrong"}, **nul)
    assert refused.status_code == 200  # the form again, with its error
    refused = web.post("/admin/login/", {"username": admin.email, "password": "wrong"}, **nul)
    assert refused.status_code == 200
    assert AccessAttempt.objects.get(ip_address=address, username=alice.label)
    assert AccessAttempt.objects.get(ip_address=address, username=admin.email)


def test_wrong_passwords_are_throttled_too(alice: Player, settings: Any) -> None:
    """The token endpoint's throttle counts every attempt, refused ones first: DRF checks
    the password before its throttles, so a wrong one (401) was never counted."""
    settings.THROTTLE_TOKEN_CREATE = "3/min"
    address, client = _address(), APIClient()
    for _ in range(3):
        assert_error(_token(client, alice.label, "wrong", address), 401)
    throttled = assert_error(_token(client, alice.label, RIGHT, address), 429, "throttled")
    assert throttled["detail"]["retry_after"] > 0
    assert AuthToken.objects.filter(user=alice.user).count() == 1  # the fixture's own
