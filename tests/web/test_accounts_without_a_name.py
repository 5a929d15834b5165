"""An account without a display name (older than names chosen at sign-up, or made by the
admin) was shown everywhere by its address's part before the @: to its table, its leagues
and, since decision 0029, any visitor of a public game. It is "Player 12" now (decision
0030), in the reader's language, and its owner is asked, on every page, to choose a name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts.addresses import verified_emails
from accounts.models import User
from games.services import tools
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


def test_the_log_names_a_nameless_staff_member_in_each_readers_language(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """A game tool's entry kept the actor's name as it read then: the address's part before
    the @ (found by review: staff made by ``createsuperuser`` are the nameless ones that use
    the tools), later "Giocatore 3" in the staff member's language for every reader."""
    staff = User.objects.create_user(f"{LOCAL_PART}@example.org", PASSWORD, is_staff=True)
    User.objects.filter(pk=staff.pk).update(language="it")
    staff.refresh_from_db()
    game = make_game(ada, bob, game_type="vegas")
    with translation.override("it"):  # (as the staff member's own requests run)
        tools.extend_deadline(game=game, by=staff, hours=5, why="a flood", authorized=True)
        tools.replace_player(game=game, by=staff, seat=1, why="gone", bot="random", authorized=True)
        tools.replace_player(
            game=game, by=staff, seat=1, why="back", substitute=staff, authorized=True
        )
    english = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f"Player {staff.pk} gave the game 5 more hours" in english
    assert f"by Player {staff.pk}; the seat keeps its holdings" in english
    french = page_text(client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert f"Joueur {staff.pk}" in french
    for page in (english, french):
        assert LOCAL_PART not in page and "Giocatore" not in page


def test_a_name_of_the_nameless_shape_is_refused(client: Any, ada: Any) -> None:
    """ "Player 7" chosen as a name would take the nameless account 7's invitations by name
    and its place in every list (found by review)."""
    client.force_login(ada)
    for taken in ("Player 7", "joueur 12", "GIOCATORE 3"):
        refused = client.post("/profile/", form_data(display_name=taken))
        assert refused.status_code == 400
        assert "is how Lords calls an account without a name" in page_text(refused.content.decode())
    assert client.post("/profile/", form_data(display_name="Player Seven")).status_code == 302


def test_the_admin_names_an_account_by_the_players_rules_or_leaves_it_nameless(
    admin_client: Any,
) -> None:
    """The admin's add-user form took any name, an address too (found by review)."""
    form = {"email": "new@example.org", "password1": "a-long-pass-9", "password2": "a-long-pass-9"}
    for name, said in (
        ("jo.smith@example.com", "A display name may not be an email address"),
        ("Player 3", "is how Lords calls an account without a name"),
    ):
        refused = admin_client.post("/admin/accounts/user/add/", {**form, "display_name": name})
        assert refused.status_code == 200 and said in page_text(refused.content.decode())
    assert not User.objects.filter(email="new@example.org").exists()
    made = admin_client.post("/admin/accounts/user/add/", {**form, "display_name": ""})
    assert made.status_code == 302
    made_user = User.objects.get(email="new@example.org")
    assert made_user.display_name == ""
    # Staff vouch for the address, as for every account the server makes: no code to type
    # at its first sign-in (found by review of decision 0034).
    assert "new@example.org" in verified_emails(made_user)
