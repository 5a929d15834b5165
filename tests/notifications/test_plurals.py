"""Found by QA of the email door: "1 hours per turn", "1 places prises sur 3", "1 posti
occupati su 3". A number said in words agrees with it, in the three languages: the clock
in the turn emails, the seats taken in the invitation, the joined and left emails, the
open table and the invitation page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from notifications.services import notify_game
from tests.notifications.conftest import html_part, text_part
from tests.web.helpers import page_text

NBSP = "\N{NO-BREAK SPACE}"
ONE_HOUR = {
    "en": "Fixed time: 1 hour per turn.",
    "fr": "1 heure par tour.",
    "it": "1 ora per turno.",
}
ONE_SEAT = {"en": "1 of 3 seats", "fr": "1 place prise sur 3", "it": "1 posto occupato su 3"}
TWO_SEATS = {"en": "2 of 3 seats", "fr": "2 places prises sur 3", "it": "2 posti occupati su 3"}
LANGUAGES = ("en", "fr", "it")


def _speaks(user: Any, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


def _both(message: Any) -> list[str]:
    return [text_part(message), html_part(message)]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_one_hour_per_turn_is_one_hour(make_game, ada, bob, smtp, language):
    _speaks(ada, language)
    _speaks(bob, language)
    game = make_game(ada, bob, turn_hours=1)
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    assert all(ONE_HOUR[language] in part for part in _both(message)), text_part(message)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_seats_taken_agree_with_their_number(ada, bob, cy, smtp, language):
    _speaks(ada, language)
    _speaks(cy, language)
    game = services.create_game(creator=ada, game_type="vegas", seats=3)
    services.invite(game=game, by=ada, email=cy.email)
    [invitation] = smtp.wait_for(1)
    assert all(f"({ONE_SEAT[language]})" in part for part in _both(invitation)), _both(invitation)
    services.join_game(game=game, user=bob)
    services.leave_game(game=game, user=bob)
    joined, left = smtp.wait_for(3)[1:]
    assert all(TWO_SEATS[language] in part for part in _both(joined)), text_part(joined)
    assert all(ONE_SEAT[language] in part for part in _both(left)), text_part(left)
    if language == "en":
        assert "1 of 3 seats is taken." in text_part(left)
        assert "2 of 3 seats are taken." in text_part(joined)

    for who, path in ((ada, f"/games/{game.pk}/"), (cy, _invitation_page(game))):
        client = Client()
        client.force_login(who)
        page = page_text(client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert ONE_SEAT[language] in page.replace(NBSP, " "), page


def _invitation_page(game: Any) -> str:
    invitation = game.invitations.get()
    return f"/games/invitations/{invitation.token}/"
