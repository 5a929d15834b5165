"""My profile and my personal API tokens (knox: several per user, stored hashed, revocable)."""

from __future__ import annotations

import base64
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import User
from tests.api.helpers import API, Player, assert_error, body
from tests.web.signing_up import PASSWORD, fill_in, type_the_code

pytestmark = pytest.mark.django_db


def _basic(email: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{email}:{password}".encode()).decode()


def test_it_creates_tokens_with_email_and_password(alice: Player, anonymous: APIClient) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION=_basic("alice@example.org", "a-long-password-1"))
    created = anonymous.post(f"{API}/tokens/")
    assert created.status_code == 201, created.content
    token = body(created)["token"]
    assert body(created)["token_key"] == token[:15]
    # Stored hashed: the database holds a digest, never the token.
    stored = AuthToken.objects.filter(user=alice.user)
    assert stored.count() == 2
    assert all(token not in (t.digest, t.token_key) for t in stored)

    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert body(fresh.get(f"{API}/me/"))["email"] == "alice@example.org"


def test_a_wrong_password_gets_no_token(alice: Player, anonymous: APIClient) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION=_basic("alice@example.org", "wrong"))
    assert_error(anonymous.post(f"{API}/tokens/"), 401, "authentication_failed")
    assert AuthToken.objects.filter(user=alice.user).count() == 1


def test_an_account_whose_address_is_not_confirmed_gets_no_token(anonymous: APIClient) -> None:
    """Signed up on the site, the code never typed: the web asks for the code before it signs
    the account in, and the API sends the person there rather than around it (0034)."""
    email = f"zed-{uuid.uuid4().hex[:12]}@example.org"
    site = Client()
    assert fill_in(site, email)["Location"] == "/accounts/confirm-email/"
    anonymous.credentials(HTTP_AUTHORIZATION=_basic(email, PASSWORD))
    refused = assert_error(anonymous.post(f"{API}/tokens/"), 403, "email_unconfirmed")
    assert "sign in on the website and type the code" in refused["message"]
    assert not AuthToken.objects.filter(user__email=email).exists()

    assert type_the_code(site, email).status_code == 302
    assert anonymous.post(f"{API}/tokens/").status_code == 201


def test_a_browser_session_creates_a_token(alice: Player) -> None:
    browser = APIClient()
    browser.force_login(alice.user)
    created = browser.post(f"{API}/tokens/")
    assert created.status_code == 201, created.content


def test_it_lists_and_revokes_one_token(alice: Player) -> None:
    second = body(alice.post("/tokens/"))
    listed = body(alice.get("/tokens/"))
    assert len(listed) == 2
    assert [t["current"] for t in listed] == [True, False]
    assert all("token" not in t and "digest" not in t for t in listed)

    assert alice.delete(f"/tokens/{second['token_key']}/").status_code == 204
    assert len(body(alice.get("/tokens/"))) == 1
    revoked = APIClient()
    revoked.credentials(HTTP_AUTHORIZATION=f"Token {second['token']}")
    assert_error(revoked.get(f"{API}/me/"), 401, "authentication_failed")
    assert_error(alice.delete("/tokens/nope/"), 404, "not_found")


def test_it_revokes_every_token(alice: Player, bob: Player) -> None:
    alice.post("/tokens/")
    assert alice.delete("/tokens/").status_code == 204
    assert not AuthToken.objects.filter(user=alice.user).exists()
    assert_error(alice.get("/me/"), 401)
    assert AuthToken.objects.filter(user=bob.user).count() == 1


def test_someone_elses_token_cannot_be_revoked(alice: Player, bob: Player) -> None:
    key = AuthToken.objects.get(user=bob.user).token_key
    assert_error(alice.delete(f"/tokens/{key}/"), 404, "not_found")
    assert AuthToken.objects.filter(user=bob.user).exists()


def test_it_reads_and_changes_my_profile(alice: Player) -> None:
    me = body(alice.get("/me/"))
    assert me == {
        "id": alice.user.pk,
        "email": "alice@example.org",
        "name": "alice",
        "display_name": "alice",
        "time_zone": "UTC",
        "language": "en",
        "away_until": None,
        "email_choices": {  # (notifications' part: tests/web/test_profile.py)
            "game_email": "each",
            "digest_hour": 8,
            "reminders": True,
            "remind_before": [],
            "quiet_from": None,
            "quiet_until": None,
            "muted": [],
        },
    }
    changed = alice.patch(
        "/me/", {"display_name": "Ada", "time_zone": "Europe/Paris", "language": "fr"}
    )
    assert changed.status_code == 200, changed.content
    user = User.objects.get(pk=alice.user.pk)
    assert (user.display_name, user.time_zone, user.language) == ("Ada", "Europe/Paris", "fr")
    assert body(changed)["name"] == "Ada"


def test_a_bad_profile_change_is_refused(alice: Player) -> None:
    error = assert_error(alice.patch("/me/", {"time_zone": "Mars/Olympus"}), 400, "invalid")
    assert "time_zone" in error["message"]
    assert "time_zone" in error["detail"]["fields"]
    assert_error(alice.patch("/me/", {"language": "xx"}), 400, "invalid")
    assert_error(alice.patch("/me/", {"display_name": "x" * 41}), 400, "invalid")
    # The email is the login: not changed here.
    alice.patch("/me/", {"email": "evil@example.org"})
    assert User.objects.get(pk=alice.user.pk).email == "alice@example.org"


def test_a_vacation_end_without_its_time_zone_is_refused(alice: Player) -> None:
    """Play-testing: ``2026-12-05T10:00:00`` was read as UTC; the field asks for a time with
    its zone, and says so."""
    naive = (timezone.now() + timedelta(days=5)).replace(tzinfo=None, microsecond=0)
    for sent in (naive.isoformat(), naive.date().isoformat()):
        response = alice.patch("/me/", {"display_name": "Ada", "away_until": sent})
        error = assert_error(response, 400, "invalid")
        assert f"{sent} has no time zone: add one" in error["message"], error
    user = User.objects.get(pk=alice.user.pk)
    assert (user.display_name, user.away_until) == ("alice", None)
    aware = alice.patch("/me/", {"away_until": f"{naive.isoformat()}+02:00"})
    assert aware.status_code == 200, aware.content


def test_an_expired_token_is_refused_and_deleted(alice: Player) -> None:
    expired, token = AuthToken.objects.create(user=alice.user, expiry=timedelta(seconds=-1))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert_error(client.get(f"{API}/me/"), 401, "authentication_failed")
    assert not AuthToken.objects.filter(digest=expired.digest).exists()
    assert alice.get("/me/").status_code == 200
