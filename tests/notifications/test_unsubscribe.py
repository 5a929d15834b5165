"""The unsubscribe link: one-click POST (RFC 8058), a GET that changes nothing, bad tokens."""

from __future__ import annotations

import pytest

from notifications.addresses import unsubscribe_token
from notifications.emails import unsubscribe_url
from notifications.models import EmailPreference
from notifications.services import wants

pytestmark = pytest.mark.django_db


def _path(user_id: int) -> str:
    return f"/notifications/unsubscribe/{unsubscribe_token(user_id)}/"


def test_one_click_post_unsubscribes_without_a_session_or_csrf_token(client, ada):
    client.handler.enforce_csrf_checks = True
    response = client.post(_path(ada.pk), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    pref = EmailPreference.objects.get(user=ada)
    assert not pref.turn_emails and not pref.reminders and pref.unsubscribed_at
    ada.refresh_from_db()
    assert not wants(ada, "turn") and not wants(ada, "reminder")


def test_a_get_alone_shows_a_button_and_changes_nothing(client, ada):
    response = client.get(_path(ada.pk))
    assert response.status_code == 200
    assert b'method="post"' in response.content and b"Unsubscribe" in response.content
    assert not EmailPreference.objects.filter(user=ada).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_token_is_refused_and_changes_nothing(client, ada, bob, method):
    token = unsubscribe_token(ada.pk)
    other = str(bob.pk) + token[token.index(":") :]
    for bad in (token[:-2] + "xx", other, "nonsense", f"{ada.pk}"):
        response = getattr(client, method)(f"/notifications/unsubscribe/{bad}/")
        assert response.status_code == 400
        assert b"not valid" in response.content
    assert not EmailPreference.objects.exists()


def test_the_link_in_the_email_is_the_view(ada, settings):
    assert unsubscribe_url(ada.pk) == settings.SITE_URL + _path(ada.pk)


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_deleted_accounts_link_is_refused_like_a_bad_one(client, ada, method):
    """QA: the link of a deleted account still worked and wrote an email choice for it."""
    from accounts.deletion import delete_account

    path = _path(ada.pk)
    delete_account(user=ada)
    response = getattr(client, method)(path, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert "Ce lien de désabonnement n'est pas valide" in response.content.decode()
    assert not EmailPreference.objects.filter(user=ada).exists()
