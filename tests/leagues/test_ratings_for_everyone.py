"""Ratings for everyone: an OpenSkill rating per game type from every finished rated game
(league or not), provisional until five games, on a leaderboard and a player's page.

The expected numbers are computed here straight from the openskill library's
Plackett-Luce model (default mu 25, sigma 25/3), independently of leagues.standings."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from accounts.models import User
from games import services
from games.models import Game
from leagues import ratings
from tests.api.helpers import body, make_player

pytestmark = pytest.mark.django_db


def _won_by(make_game: Any, winner: User, loser: User, *, rated: bool = True) -> Game:
    """A two-player game the loser resigns at once (so the winner is first, the loser second)."""
    game = make_game(winner, loser, rated=rated)
    return services.resign(game=game, user=loser)


def _expected(games: int) -> tuple[Any, Any]:
    """The winner's and the loser's ratings after ``games`` 1st-vs-2nd games, by openskill."""
    model = PlackettLuce()
    first, second = model.rating(), model.rating()
    for _ in range(games):
        [[first], [second]] = model.rate([[first], [second]], ranks=[1, 2])
    return first, second


def test_every_rated_game_counts_and_an_unrated_one_does_not(
    make_game: Any, client: Any, ada: User, bob: User
) -> None:
    for _ in range(4):
        _won_by(make_game, ada, bob)
    _won_by(make_game, bob, ada, rated=False)  # not rated: changes nothing
    first, second = _expected(4)
    found = ratings.ratings("vegas")
    assert (round(found[ada.pk].mu, 6), round(found[ada.pk].sigma, 6)) == (
        round(first.mu, 6),
        round(first.sigma, 6),
    )
    assert round(found[bob.pk].mu, 6) == round(second.mu, 6)
    assert (found[ada.pk].games, found[ada.pk].provisional) == (4, True)

    client.force_login(bob)
    page = client.get("/ratings/vegas/").content.decode()
    assert "Nobody has played 5 rated games yet." in page
    assert f"{round(first.mu - 3 * first.sigma, 2):.2f}" in page  # in the provisional list

    _won_by(make_game, ada, bob)  # the fifth: ranked now
    first, second = _expected(5)
    ranked, provisional = ratings.leaderboard("vegas")
    assert [(line.position, line.user, line.rating.games) for line in ranked] == [
        (1, ada, 5),
        (2, bob, 5),
    ]
    assert provisional == []
    assert ranked[0].rating.ordinal == round(first.mu - 3 * first.sigma, 2)
    assert ranked[1].rating.ordinal == round(second.mu - 3 * second.sigma, 2)
    page = client.get("/ratings/vegas/").content.decode()
    assert f"{ranked[0].rating.ordinal:.2f}" in page and "Provisional" not in page

    mine = client.get(f"/ratings/players/{ada.pk}/").content.decode()
    assert "Vegas" in mine and f"{ranked[0].rating.ordinal:.2f}" in mine
    assert "provisional</span>" not in mine


def test_a_new_player_is_provisional_on_their_page(
    make_game: Any, client: Any, ada: User, bob: User
) -> None:
    _won_by(make_game, ada, bob)
    client.force_login(bob)
    page = client.get(f"/ratings/players/{bob.pk}/").content.decode()
    assert "provisional</span>" in page
    assert "A rating is provisional until 5 rated games." in page
    assert client.get(f"/ratings/players/{ada.pk}/").status_code == 200
    assert client.get("/ratings/no-such-game/").status_code == 404
    assert f'href="/ratings/players/{bob.pk}/"' in client.get("/").content.decode()  # the desk


def test_the_pages_need_a_sign_in(client: Any, ada: User) -> None:
    assert client.get("/ratings/vegas/").status_code == 302
    assert client.get(f"/ratings/players/{ada.pk}/").status_code == 302


def test_the_creator_chooses_rated_or_not_on_the_web(client: Any, ada: User) -> None:
    client.force_login(ada)
    page = client.get("/games/?game_type=vegas").content.decode()
    assert "counts towards the players&#x27; ratings" in page
    form = {"game_type": "vegas", "seats": 2, "edition": "neutral", "turn_hours": 48}
    client.post("/games/new/", form)
    client.post("/games/new/", {**form, "rated": "on"})
    assert list(Game.objects.order_by("id").values_list("rated", flat=True)) == [False, True]


def test_the_creator_chooses_rated_or_not_in_the_api() -> None:
    alice = make_player("alice")
    unrated = body(alice.post("/games/", {"game_type": "vegas", "seats": 2, "rated": False}))
    rated = body(alice.post("/games/", {"game_type": "vegas", "seats": 2}))
    assert Game.objects.get(pk=unrated["id"]).rated is False
    assert Game.objects.get(pk=rated["id"]).rated is True
