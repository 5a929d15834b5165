"""The lobby (/games/): the user's games by what they ask of them, games open to join, and
create / join / start through the existing services, with their errors on the page."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game, Seat
from tests.web.helpers import actor, page_text

pytestmark = pytest.mark.django_db


def test_creating_a_game_needs_a_sign_in(client: Any) -> None:
    """(A signed-out visitor's lobby lists the games to watch: tests/web/test_a_visitor.py.)"""
    response = client.get("/games/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_home_page_links_to_it(client: Any, ada: Any) -> None:
    client.force_login(ada)
    assert 'href="/games/#h-create"' in client.get("/").content.decode()


def test_it_lists_the_games_by_what_they_ask(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    lords = make_game(ada, bob, game_type="lords-of-vegas")
    mine_open = make_game(ada, start=False, seats=3)
    theirs_open = make_game(cy, start=False, seats=3)
    private = make_game(cy, start=False, seats=3, private=True)
    finished = make_game(ada, bob, game_type="vegas")
    services.resign(game=finished, user=bob)
    client.force_login(ada)
    text = page_text(client.get("/games/").content.decode())
    waiting, rest = text.split("Waiting for you", 1)[1].split("In progress", 1)
    active, rest = rest.split("Open: waiting for players", 1)
    mine, rest = rest.split("Open to join", 1)
    joinable, finished_part = rest.split("Finished", 1)
    lords_title = f"Lords of Vegas #{lords.pk}"
    assert lords_title in (waiting if actor(lords) == ada else active)
    assert lords_title not in (active if actor(lords) == ada else waiting)
    assert f"Vegas #{mine_open.pk}" in mine
    assert f"Vegas #{theirs_open.pk}" in joinable
    assert f"#{private.pk}" not in text  # private, and ada is not invited
    assert f"Vegas #{finished.pk}" in finished_part


def test_it_creates_a_game(client: Any, ada: Any) -> None:
    client.force_login(ada)
    response = client.post(
        "/games/new/",
        {
            "game_type": "lords-of-vegas",
            "seats": 3,
            "edition": "classic",
            "turn_hours": 48,
            "max_timeouts": 0,
            "vacation_days": 7,
        },
        follow=True,
    )
    game = Game.objects.get(created_by=ada)
    assert (game.options, game.max_seats, game.turn_hours) == ({"edition": "classic"}, 3, 48)
    assert (game.max_timeouts, game.vacation_days) == (0, 7)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert f"Game #{game.pk} is open" in response.content.decode()


def test_it_shows_what_the_service_refuses_on_creation(client: Any, ada: Any) -> None:
    client.force_login(ada)
    response = client.post(
        "/games/new/",
        {
            "game_type": "lords-of-vegas",
            "seats": 6,
            "edition": "classic",
            "turn_hours": 48,
        },
    )
    assert response.status_code == 400
    # (a sentence of its own on the page: it began in lower case)
    assert "The classic edition is for 2 to 4 players, not 6" in page_text(
        response.content.decode()
    )
    assert not Game.objects.exists()


def test_it_keeps_bad_form_input_on_the_page(client: Any, ada: Any) -> None:
    client.force_login(ada)
    response = client.post(
        "/games/new/", {"game_type": "vegas", "edition": "standard", "seats": 9, "turn_hours": 1}
    )
    assert response.status_code == 400
    assert "less than or equal to 5" in response.content.decode()
    assert 'value="9"' in response.content.decode()
    assert not Game.objects.exists()


def test_it_joins_and_starts_a_game(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, start=False, seats=2, game_type="vegas")
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/join/", follow=True)
    assert "You have joined game" in response.content.decode()
    assert Seat.objects.filter(game=game, user=bob).exists()
    client.force_login(ada)
    response = client.post(f"/games/{game.pk}/start/", follow=True)
    assert "has started" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_it_shows_why_a_start_is_refused(client: Any, ada: Any, make_game: Any) -> None:
    game = make_game(ada, start=False, seats=2, game_type="vegas")
    client.force_login(ada)
    response = client.post(f"/games/{game.pk}/start/", follow=True)
    assert "Vegas needs at least 2 players; 1 seated" in page_text(response.content.decode())
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_it_shows_why_a_join_is_refused(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, start=False, seats=2, game_type="vegas")
    client.force_login(cy)
    response = client.post(f"/games/{game.pk}/join/", follow=True)
    assert "is full (2 of 2 seats taken)" in page_text(response.content.decode())
    assert not Seat.objects.filter(game=game, user=cy).exists()


def test_it_refuses_an_edition_of_another_game(client: Any, ada: Any) -> None:
    client.force_login(ada)
    response = client.post(
        "/games/new/",
        {"game_type": "vegas", "seats": 3, "edition": "classic", "turn_hours": 48},
    )
    assert response.status_code == 400
    assert "classic is not one of the available choices" in page_text(response.content.decode())
    assert not Game.objects.exists()


def test_the_editions_offered_are_the_engines_own(client: Any, ada: Any) -> None:
    client.force_login(ada)
    assert "?game_type=vegas" in client.get("/games/").content.decode()  # the game first
    vegas = client.get("/games/?game_type=vegas").content.decode()
    assert 'value="neutral"' in vegas and 'value="2024"' not in vegas and "default" not in vegas
    lords = client.get("/games/?game_type=lords-of-vegas").content.decode()
    assert 'value="2024"' in lords and 'value="classic"' in lords and 'value="neutral"' not in lords


def test_it_lists_the_invitations_waiting_for_an_answer(client: Any, ada: Any, bob: Any) -> None:
    """Bob, invited by name to Ada's private game, finds it in the lobby too (it said only
    "You are in no open game"; the invitation was on the home page alone)."""
    game = services.create_game(creator=ada, game_type="vegas", seats=3, private=True)
    bob.display_name = "Bobby"
    bob.save(update_fields=["display_name"])
    invitation = services.invite_player(game=game, by=ada, who="Bobby")
    client.force_login(bob)
    page = client.get("/games/").content.decode()
    section = page.split('id="desk-invitations"', 1)[1].split("</ul>", 1)[0]
    assert f"/invitations/{invitation.token}/" in section and f"#{game.pk}" in section
    assert f"from {ada.name}" in page_text(section)


def test_the_creation_address_opened_in_the_browser_leads_to_the_creation_form(
    client: Any, ada: Any
) -> None:
    """GET /games/new/ answered a blank 405 page: it goes to the lobby's creation form (the
    game type kept when the address names one)."""
    client.force_login(ada)
    response = client.get("/games/new/")
    assert response.status_code == 302 and response["Location"] == "/games/#create"
    assert "Which game?" in page_text(client.get(response["Location"]).content.decode())
    response = client.get("/games/new/?game_type=vegas")
    assert response["Location"] == "/games/?game_type=vegas#create"
    assert 'id="create-form"' in client.get(response["Location"]).content.decode()
    assert client.get("/games/new/?game_type=<nope>")["Location"] == "/games/#create"
