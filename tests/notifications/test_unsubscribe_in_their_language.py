"""The unsubscribe link's pages speak the language of the player the link is for (as
their emails and their calendar feed do), whatever the browser that opens it asks for.

Found by play-testing: French Ada's link, opened in an English browser, asked "Stop game
emails?"."""

from __future__ import annotations

import pytest

from notifications.addresses import unsubscribe_token
from notifications.models import EmailPreference

pytestmark = pytest.mark.django_db


def _path(user_id: int) -> str:
    return f"/notifications/unsubscribe/{unsubscribe_token(user_id)}/"


@pytest.mark.parametrize(
    ("language", "browser", "asked", "done"),
    [
        ("fr", "en", "Ne plus recevoir les e-mails de partie", "Ton désabonnement est confirmé"),
        ("it", "fr", "Smettere di ricevere le email di gioco", "La tua iscrizione è stata"),
        ("en", "it", "Stop game emails?", "You are unsubscribed"),
    ],
)
def test_the_link_speaks_its_players_language_not_the_browsers(
    client, make_user, language, browser, asked, done
):
    player = make_user(f"ada-{language}", language=language)
    page = client.get(_path(player.pk), HTTP_ACCEPT_LANGUAGE=browser)
    assert page.status_code == 200
    assert asked in page.content.decode()
    assert f'<html lang="{language}"' in page.content.decode()
    assert page["Content-Language"] == language
    answer = client.post(_path(player.pk), HTTP_ACCEPT_LANGUAGE=browser)
    assert answer.status_code == 200 and done in answer.content.decode()
    assert answer["Content-Language"] == language
    assert not EmailPreference.objects.get(user=player).turn_emails


def test_a_bad_link_is_in_the_browsers_language(client, make_user):
    """Whose link it is, is not known: the browser's language is all there is."""
    response = client.get("/notifications/unsubscribe/nonsense/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert "Ce lien de désabonnement n'est pas valide" in response.content.decode()
