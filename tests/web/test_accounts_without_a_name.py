"""An account without a display name (older than names chosen at sign-up, or made by the
admin) was shown everywhere by its address's part before the @: to its table, its leagues
and, since decision 0029, any visitor of a public game. It is "Player 12" now (decision
0030), in the reader's language, and its owner is asked, on every page, to choose a name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD
from tests.web.helpers import page_text
from tests.web.test_profile import form_data

pytestmark = pytest.mark.django_db

LOCAL_PART = "zelda.quietly"


@pytest.fixture
def zelda() -> User:
    """An account made without a name (as the admin's ``createsuperuser`` makes one)."""
    return User.objects.create_user(f"{LOCAL_PART}@example.org", PASSWORD)


def test_a_visitor_reads_a_number_not_the_address(
    client: Any, zelda: User, ada: Any, make_game: Any
) -> None:
    game = make_game(zelda, ada, game_type="lords-of-vegas", options={"edition": "2024"})
    english = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f"Player {zelda.pk}" in english and "ada" in english
    french = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert f"Joueur {zelda.pk}" in page_text(french.content.decode())
    for answer in (english, french.content.decode()):
        assert LOCAL_PART not in answer


def test_its_owner_is_asked_to_choose_a_name_until_they_do(zelda: User) -> None:
    client = Client()
    client.force_login(zelda)
    lobby = page_text(client.get("/games/").content.decode())
    assert f"Other players see you as Player {zelda.pk}. Choose your display name" in lobby
    assert LOCAL_PART not in lobby
    saved = client.post("/profile/", form_data(display_name="Zelda"))
    assert saved.status_code == 302
    lobby = page_text(client.get("/games/").content.decode())
    assert "Choose your display name" not in lobby and "Zelda" in lobby


def test_a_named_player_is_not_asked(ada: Any) -> None:
    client = Client()
    client.force_login(ada)
    assert "Choose your display name" not in client.get("/games/").content.decode()
