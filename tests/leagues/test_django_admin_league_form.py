"""The Django admin's league form judges as the site's LeagueForm: the game and its edition
are choices, never free text or JSON; a bad one is refused and nothing is saved."""

from __future__ import annotations

from typing import Any

import pytest

from leagues.models import League

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Vegas Nights",
    "slug": "vegas-nights",
    "description": "",
    "game_type": "vegas",
    "edition": "neutral",
    "players_per_game": "3",
    "turn_hours": "48",
    "max_timeouts": "3",
    "vacation_days": "14",
    "open": "on",
    "memberships-TOTAL_FORMS": "0",
    "memberships-INITIAL_FORMS": "0",
}


@pytest.fixture
def staff(client: Any, make_user: Any) -> Any:
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def test_a_game_type_not_in_the_registry_is_refused(staff: Any) -> None:
    page = staff.post("/admin/leagues/league/add/", {**FORM, "game_type": "Lords of Vegas"})
    assert page.status_code == 200
    assert "Select a valid choice. Lords of Vegas is not one of the available choices." in (
        page.content.decode()
    )
    assert not League.objects.exists()


def test_an_edition_of_another_game_is_refused(staff: Any) -> None:
    page = staff.post("/admin/leagues/league/add/", {**FORM, "edition": "classic"})
    assert "Select a valid choice. classic is not one of the available choices." in (
        page.content.decode()
    )
    assert not League.objects.exists()


def test_the_options_are_made_from_the_edition_chosen(staff: Any) -> None:
    page = staff.get("/admin/leagues/league/add/").content.decode()
    assert 'name="options"' not in page and 'name="edition"' in page
    staff.post("/admin/leagues/league/add/", FORM)
    league = League.objects.get()
    assert (league.options, league.players_per_game, league.turn_hours) == (
        {"variant": "neutral"},
        3,
        48,
    )
