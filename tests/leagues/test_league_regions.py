"""The league's page and a season's page name each of their regions (a named section, a
table's scrolling box) differently, so a screen reader's list of landmarks tells them
apart. Found by an accessibility review (axe's landmark-unique): the standings' and the
ratings' sections and the scrolling boxes of their tables were named by the same heading."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games import services
from leagues import selectors
from leagues import services as leagues
from leagues.models import League, Season
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def _text_of(html: str, id_: str) -> str:
    found = re.search(rf'<(\w+)[^>]*\bid="{id_}"[^>]*>(.*?)</\1>', html, re.S)
    assert found, f"nothing has the id {id_}"
    return page_text(found.group(2)).strip()


def _regions(html: str) -> list[str]:
    """The names of the page's regions: the sections and boxes named by aria-labelledby
    (a section without a name is no region)."""
    names = []
    for tag in re.findall(r"<(?:section|div)\b[^>]*>", html):
        if tag.startswith("<div") and 'role="region"' not in tag:
            continue
        ids = re.search(r'aria-labelledby="([^"]+)"', tag)
        if ids:
            names.append(" ".join(_text_of(html, id_) for id_ in ids.group(1).split()))
    return names


@pytest.fixture
def played(season_with: Callable[..., Season], ada: User, bob: User, cy: User) -> Season:
    """A season started, a game of it resigned: standings, games and ratings to show."""
    season = season_with(ada, bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada)
    link = selectors.season_games(season=season)[0]
    loser = link.game.seats.exclude(user=None).first()
    assert loser is not None
    services.resign(game=link.game, user=loser.user)
    return season


def test_the_league_page_names_each_region_its_own_way(
    played: Season, league: League, ada: User, client: Client
) -> None:
    client.force_login(ada)
    html = client.get(f"/leagues/{league.slug}/").content.decode()
    assert _regions(html) == [
        "Seasons",
        "Standings: Season 1",
        "Standings table",
        "Games table",
        "League ratings",
        "Ratings table",
    ]


def test_a_season_page_names_each_region_its_own_way(
    played: Season, league: League, ada: User, client: Client
) -> None:
    client.force_login(ada)
    html = client.get(f"/leagues/{league.slug}/seasons/{played.number}/").content.decode()
    regions = _regions(html)
    assert regions[-2:] == ["Games", "Games table"]
    assert len(set(regions)) == len(regions)
