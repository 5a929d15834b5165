"""The season's tables are said before anything starts, and a season never draws tables
smaller than its admin allowed (4 players at 3 a table once drew two games of 2)."""

from __future__ import annotations

from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.services.errors import InvalidRequest
from leagues import services as leagues
from leagues.models import Season, SeasonGame
from leagues.tables import plan
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def test_seven_at_three_with_tables_of_two_allowed() -> None:
    found = plan(7, 3, smallest=2)
    assert found.sizes == [3, 2, 2]
    assert found.text == "7 players at 3 a table: tables of 3, 2 and 2"


def test_a_refusal_says_what_would_work() -> None:
    found = plan(4, 3)
    assert not found.ok
    assert found.text == (
        "4 players cannot all sit at tables of 3 (the smallest allowed is 3): enter 2 more "
        "players (6) or withdraw 1 player (3) or allow tables of 2"
    )


def test_four_players_at_three_a_table_are_refused_and_nothing_is_drawn(
    season_with: Callable[..., Season], make_user: Callable[..., User], ada: User
) -> None:
    players = [make_user(f"p{i}") for i in range(4)]
    season = season_with(*players, players_per_game=3)
    with pytest.raises(InvalidRequest, match="4 players cannot all sit at tables of 3"):
        leagues.start_season(season=season, by=ada)
    season.refresh_from_db()
    assert season.status == Season.Status.DRAFT
    assert not SeasonGame.objects.exists()


def test_seat_order_turns_when_the_same_players_meet_again(
    season_with: Callable[..., Season], ada: User, bob: User
) -> None:
    season = season_with(ada, bob, players_per_game=2, rounds=2)
    leagues.start_season(season=season, by=ada, seed="fixed")
    games = [link.game for link in SeasonGame.objects.filter(season=season).order_by("round")]
    firsts = [g.seats.get(order=0).user for g in games]
    assert sorted(u.email for u in firsts if u is not None) == sorted([ada.email, bob.email])


@pytest.mark.parametrize(
    ("players", "per_table", "smallest", "said"),
    [
        (0, 2, None, "nobody has entered yet: enter at least 2 players"),
        (0, 3, None, "nobody has entered yet: enter at least 3 players"),
        (0, 4, 2, "nobody has entered yet: enter at least 2 players"),
        (1, 2, None, "only 1 player has entered: enter 1 more (at least 2)"),
        (2, 4, None, "only 2 players have entered: enter 2 more (at least 4)"),
    ],
)
def test_too_few_to_sit_says_how_many_to_enter(
    players: int, per_table: int, smallest: int | None, said: str
) -> None:
    """It read "0 players cannot all sit at tables of 2 ...: enter 2 more players (2)"."""
    found = plan(players, per_table, smallest)
    assert not found.ok and found.text == said


def test_the_empty_seasons_preview_says_nobody_has_entered(
    season_with: Callable[..., Season], ada: User, client: Any
) -> None:
    season = season_with(players_per_game=2)
    ada.language = "fr"
    ada.save(update_fields=["language"])
    client.force_login(ada)
    html = client.get(f"/leagues/{season.league.slug}/seasons/{season.number}/").content
    said = unescape(html.decode())  # (page_text would squeeze the no-break space)
    assert "Personne n'est encore inscrit\u00a0: inscrire au moins 2 joueurs" in said
    assert "0 joueurs" not in page_text(html.decode())


@pytest.mark.django_db
def test_the_season_page_says_two_players_play_one_game_a_cycle(
    season_with: Callable[..., Season], ada: User, bob: User
) -> None:
    """It read "a round robin of 1 rounds, 1 games in all" beside "2 cycles"."""
    season = season_with(ada, bob, players_per_game=2, rounds=2)
    client = Client()
    client.force_login(ada)
    page = page_text(
        client.get(f"/leagues/{season.league.slug}/seasons/{season.number}/").content.decode()
    )
    assert (
        "2 players at 2 a table: one game. All of it played 2 times, one cycle after the other."
        in page
    )
