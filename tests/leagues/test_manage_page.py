"""The league admin's page holds several forms: every element id is its own, every label
names a field of its own form (the season form and the settings form both rendered id_name,
id_players_per_game, id_turn_hours...: a label pointed at the other form's field), and every
button repeated for each person is named for that person."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from leagues import manage
from leagues import services as leagues
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


def _buttons(html: str, list_id: str) -> list[tuple[str, str]]:
    """The buttons of a list, and its links (a member's "remove" leads to its confirmation
    page), as (what they show, their accessible name)."""
    found = re.search(rf'<ul id="{list_id}">(.*?)</ul>', html, re.S)
    assert found, list_id
    buttons = []
    for attrs, shown in re.findall(
        r"<(?:button|a)([^>]*)>(.*?)</(?:button|a)>", found.group(1), re.S
    ):
        label = re.search(r'aria-label="([^"]*)"', attrs)
        buttons.append((shown.strip(), label.group(1) if label else shown.strip()))
    return buttons


def test_each_persons_button_is_named_for_that_person(
    league: League, ada: User, make_user: Any, client: Client
) -> None:
    """Found by an accessibility review (WCAG 2.4.6): the members' buttons were all named
    "remove" and the admins' "dismiss", so a list of the page's buttons could not say whom
    each removes. Each shows its word, and its name starts with it (WCAG 2.5.3) and says
    whom it is for."""
    bob, cy, dee, eve = (make_user(n, display_name=n.title()) for n in ("bob", "cy", "dee", "eve"))
    for user in (bob, cy):
        leagues.join_league(league=league, user=user)
    manage.appoint_admin(league=league, user=bob, by=ada)
    league.open = False
    league.save(update_fields=["open"])
    for user in (dee, eve):
        manage.ask_to_join(league=league, user=user)
    client.force_login(ada)
    html = client.get(f"/leagues/{league.slug}/manage/").content.decode()

    # (Bob, an admin, is not removed: the owner dismisses him first)
    assert _buttons(html, "members") == [("remove", "remove Cy from the members")]
    assert _buttons(html, "admins") == [("dismiss", "dismiss Bob as an admin")]
    assert _buttons(html, "requests") == [
        ("Accept", "Accept Dee"),
        ("Refuse", "Refuse Dee"),
        ("Accept", "Accept Eve"),
        ("Refuse", "Refuse Eve"),
    ]
