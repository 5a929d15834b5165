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


def _name_field(html: str) -> tuple[str, str]:
    """The name input as drawn, and what its description (aria-describedby) says."""
    field = re.search(r'<input type="text" name="name"[^>]*>', html)
    assert field, "no name field"
    described = re.search(r'aria-describedby="([^"]*)"', field.group(0))
    assert described, f"the name field is described by nothing: {field.group(0)}"
    said = [
        page_text(found.group(1)).strip()
        for id_ in described.group(1).split()
        if (found := re.search(rf'<ul[^>]* id="{id_}"[^>]*>(.*?)</ul>', html, re.S))
    ]
    return field.group(0), " ".join(said)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (
            "Tuesday Club",
            "a league of that name already exists (its address is 'tuesday-club'): "
            "choose another name",
        ),
        ("tuesday  club!", "its address is 'tuesday-club'"),  # (the same address)
        (
            "???",
            "the name '???' makes no web address: put some Latin letters or digits in it",
        ),
    ],
)
def test_a_name_the_league_cannot_have_is_said_under_the_name(
    ada: User, client: Client, name: str, said: str
) -> None:
    """Found by an accessibility review (WCAG 3.3.1, 3.3.3): a name whose address another
    league has was refused above the form, "choose another slug", and the form has no slug:
    the refusal is the name field's, which says it is invalid and is described by it."""
    from leagues import services as leagues

    leagues.create_league(creator=ada, name="Tuesday Club", game_type="vegas")
    client.force_login(ada)
    answer = client.post(
        "/leagues/new/",
        {
            **FORM,
            "name": name,
            "edition": "standard",
            "players_per_game": "2",
            "membership": "open",
        },
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    field, description = _name_field(html)
    assert 'aria-invalid="true"' in field
    assert said in description
    assert "slug" not in page_text(html)
    assert "errorlist nonfield" not in html
    assert League.objects.count() == 1
