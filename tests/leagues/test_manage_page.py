"""The league admin's page holds several forms: every element id is its own, and every
label names a field of its own form (the season form and the settings form both rendered
id_name, id_players_per_game, id_turn_hours...: a label pointed at the other form's field)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client

from accounts.models import User
from leagues.models import League

pytestmark = pytest.mark.django_db


def test_every_id_is_unique_and_every_label_names_its_own_forms_field(
    league: League, ada: User, client: Client
) -> None:
    client.force_login(ada)
    html = client.get(f"/leagues/{league.slug}/manage/").content.decode()
    ids = Counter(re.findall(r'\bid="([^"]+)"', html))
    assert [i for i, n in ids.items() if n > 1] == []
    forms = re.findall(r"<form\b.*?</form>", html, re.S)
    labelled = 0
    for form in forms:
        own = set(re.findall(r'\bid="([^"]+)"', form))
        for target in re.findall(r'<label for="([^"]+)"', form):
            assert target in own, target
            labelled += 1
    assert labelled >= 15  # (the season form, the settings form, members, admins...)


def test_the_settings_and_a_season_are_still_posted_by_their_names(
    league: League, ada: User, client: Client
) -> None:
    client.force_login(ada)
    html = client.get(f"/leagues/{league.slug}/manage/").content.decode()
    assert html.count('name="turn_hours"') == 2
    answer = client.post(
        f"/leagues/{league.slug}/manage/seasons/",
        {
            "players_per_game": "2",
            "rounds": "1",
            "divisions": "1",
            "turn_hours": "48",
            "max_timeouts": "3",
            "vacation_days": "1",
        },
    )
    assert answer.status_code == 302
    assert league.seasons.get().turn_hours == 48
