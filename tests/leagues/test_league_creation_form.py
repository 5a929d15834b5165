"""Creating a league on the site: changing the game shows the new game's options, and
nothing the reader has not submitted is judged (the edition of the game before said "Select
a valid choice. 2024 is not one of the available choices" under Edition)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from leagues.models import League
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Desert Cup",
    "game_type": "vegas",
    "turn_hours": "48",
    "max_timeouts": "3",
    "vacation_days": "14",
}
"""What both tests post (the fields a new game does not change)."""


def _select(html: str, select: str) -> str:
    found = re.search(rf'<select name="{select}"[^>]*>(.*?)</select>', html, re.S)
    assert found
    return found.group(1)


def _options(html: str, select: str) -> list[str]:
    return re.findall(r'<option value="([^"]*)"', _select(html, select))


def _selected(html: str, select: str) -> str | None:
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', _select(html, select))
    return chosen.group(1) if chosen else None


@pytest.mark.parametrize("language", ["en", "fr"])
def test_changing_the_game_shows_its_options_without_an_error(
    language: str, ada: User, client: Client
) -> None:
    ada.language = language
    ada.save(update_fields=["language"])
    client.force_login(ada)
    lords = client.get("/leagues/new/?game=lords-of-vegas").content.decode()
    assert _options(lords, "edition") == ["2024", "classic"]

    answer = client.post(
        "/leagues/new/",  # (the button's formaction, "?")
        {
            **FORM,  # the game changed from Lords of Vegas, its options not yet
            "edition": "2024",
            "players_per_game": "6",
            "membership": "approval",
            "change_game": "1",
        },
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'role="alert"' not in html and "errorlist" not in html
    assert "2024" not in page_text(html)
    assert _options(html, "edition") == ["standard", "neutral"]
    assert _options(html, "players_per_game") == ["2", "3", "4", "5"]
    assert _selected(html, "game_type") == "vegas"
    assert _selected(html, "membership") == "approval"
    assert 'value="Desert Cup"' in html and 'value="48"' in html
    assert not League.objects.exists()


def test_the_league_is_made_with_the_new_games_options(ada: User, client: Client) -> None:
    client.force_login(ada)
    answer = client.post(
        "/leagues/new/",
        {**FORM, "edition": "neutral", "players_per_game": "3", "membership": "open"},
    )
    assert answer.status_code == 302
    league = League.objects.get()
    assert (league.game_type, league.options, league.players_per_game) == (
        "vegas",
        {"variant": "neutral"},
        3,
    )
