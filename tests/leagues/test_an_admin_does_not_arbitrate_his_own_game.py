"""A league's admin who plays in one of its games (or played in it, until replaced) gets
neither the game tools' panel on its page nor the tools: another admin or the staff
arbitrate it, as a tournament director does not arbitrate their own game (0014). Before,
Bob, appointed admin and seated in a game, gave himself 720 hours and replaced his
opponent by a bot."""

from __future__ import annotations

from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Move
from leagues import manage
from leagues import services as leagues
from leagues.models import Season
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(season_with: Callable[..., Season], ada: User, bob: User, dee: User) -> Game:
    """Ada (the owner) appoints Bob admin; the season seats Bob against Dee."""
    season = season_with(bob, dee, players_per_game=2)
    manage.appoint_admin(league=season.league, user=bob, by=ada)
    leagues.start_season(season=season, by=ada)
    return Game.objects.get(season_game__season=season)


def _state(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    seats = list(game.seats.order_by("order").values_list("user", "bot"))
    return game.status, game.deadline, game.paused_at, seats, Move.objects.count()


def _tried(client: Client, game: Game, dee: User) -> list[tuple[int, str]]:
    """Every tool posted from the game page's forms: (status, what the page says)."""
    dee_seat = str(game.seats.get(user=dee).order)
    answers = [
        client.post(f"/leagues/games/{game.pk}/tools/extend/", {"why": "me", "hours": "720"}),
        client.post(f"/leagues/games/{game.pk}/tools/replace/", {"why": "me", "seat": dee_seat}),
        client.post(f"/leagues/games/{game.pk}/tools/pause/", {"why": "me"}),
        client.post(f"/leagues/games/{game.pk}/tools/abort/", {"why": "me"}),
    ]
    return [(a.status_code, page_text(a.content.decode())) for a in answers]


def test_an_admin_seated_in_the_game_is_refused_its_tools(
    game: Game, bob: User, dee: User, client: Client
) -> None:
    client.force_login(bob)
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Game tools" not in page and "Extend the deadline" not in page
    before = _state(game)
    refusal = (
        f"You play or played in game #{game.pk}: its tools are for the league's other admins "
        "and the staff."
    )
    for status, text in _tried(client, game, dee):
        assert status == 403 and refusal in text
    assert _state(game) == before


def test_the_owner_seated_is_refused_too(
    season_with: Callable[..., Season], ada: User, bob: User, client: Client
) -> None:
    season = season_with(ada, bob, players_per_game=2)
    manage.appoint_admin(league=season.league, user=bob, by=ada)
    leagues.start_season(season=season, by=ada)
    game = Game.objects.get(season_game__season=season)
    before = _state(game)
    for admin in (ada, bob):  # (both seated: the staff arbitrate this game)
        client.force_login(admin)
        assert "Game tools" not in page_text(client.get(f"/games/{game.pk}/").content.decode())
        answer = client.post(f"/leagues/games/{game.pk}/tools/pause/", {"why": "me"})
        assert answer.status_code == 403
    assert _state(game) == before


def test_an_admin_replaced_in_the_game_stays_refused(
    game: Game, ada: User, bob: User, dee: User, make_user: Any, client: Client
) -> None:
    seat = game.seats.get(user=bob).order
    manage.use_tool(game=game, by=ada, tool="replace", why="away", seat=seat, bot="greedy")
    assert not game.seats.filter(user=bob).exists()
    client.force_login(bob)
    assert "Game tools" not in page_text(client.get(f"/games/{game.pk}/").content.decode())
    before = _state(game)
    assert all(status == 403 for status, _text in _tried(client, game, dee))
    assert _state(game) == before


def test_the_owner_not_seated_and_the_staff_seated_keep_the_tools(
    game: Game, ada: User, dee: User, client: Client
) -> None:
    client.force_login(ada)
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Game tools" in page
    answer = client.post(f"/leagues/games/{game.pk}/tools/extend/", {"why": "x", "hours": "2"})
    assert answer.status_code == 302

    dee.is_staff = True
    dee.save(update_fields=["is_staff"])
    client.force_login(dee)
    assert "Game tools" in page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert manage.may_use_tools(game, dee)


def test_the_refusal_is_in_the_readers_language(game: Game, bob: User, client: Client) -> None:
    bob.language = "fr"
    bob.save(update_fields=["language"])
    client.force_login(bob)
    answer = client.post(f"/leagues/games/{game.pk}/tools/pause/", {"why": "me"})
    assert answer.status_code == 403
    assert (
        f"Tu joues ou as joué dans la partie #{game.pk}\u00a0: ses outils sont pour les "
        "autres admins de la ligue et l'équipe du site." in unescape(answer.content.decode())
    )  # (the page as written: page_text squeezes the no-break space)


def test_an_admin_may_not_seat_himself_by_the_replace_tool(
    game: Game, ada: User, dee: User
) -> None:
    """Ada arbitrates Bob against Dee: replacing Dee by herself would make her a player
    of a game she arbitrates (she would lose the tools only once seated)."""
    before = _state(game)
    seat = game.seats.get(user=dee).order
    with pytest.raises(manage.NotAllowed, match="does not seat themselves"):
        manage.use_tool(game=game, by=ada, tool="replace", why="me", seat=seat, substitute=ada)
    assert _state(game) == before
