"""The league pages in a real browser (English and French, desktop and phones of 390 and
320 px): screenshots to /tmp/shots_l/ (look at them), no Content-Security-Policy violation,
no page wider than the screen, and no violation axe-core finds (bundled with
axe-playwright-python, no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from leagues import services as leagues
from tests.web.helpers import axe_violations, shoot
from tests.web.test_in_a_browser import _missing, _sign_in, page  # noqa: F401

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the test below says so
    Axe = None

SHOTS = Path("/tmp/shots_l")
pytestmark = [pytest.mark.skipif(bool(_missing), reason=_missing), pytest.mark.slow]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_admin_pages_render(
    transactional_db: Any,
    live_server: Any,
    page: Any,  # noqa: F811 (the browser fixture, imported)
    make_user: Any,
    language: str,
) -> None:
    SHOTS.mkdir(exist_ok=True)
    ada = make_user("ada")
    ada.language = language
    ada.save()
    league = leagues.create_league(creator=ada, name="Vegas Nights", game_type="vegas")
    season = leagues.open_season(league=league, by=ada, players_per_game=3, smallest_table=2)
    for i in range(7):
        player = make_user(f"p{i}")
        leagues.join_league(league=league, user=player)  # (an admin enters members only)
        leagues.enter_season(season=season, user=player, by=ada)
    base = live_server.url
    _sign_in(page, base, ada)
    wider, found = {}, []
    for path, name in (
        ("/leagues/", "list"),
        ("/leagues/new/", "create"),
        ("/leagues/vegas-nights/manage/", "manage"),
        ("/leagues/vegas-nights/seasons/1/", "season-preview"),
        ("/leagues/vegas-nights/", "league"),
    ):
        for width, height, device in (
            (1280, 900, "desktop"),
            (390, 844, "phone"),
            (320, 640, "small-phone"),
        ):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{base}{path}")
            shoot(page, str(SHOTS / f"{name}-{device}-{language}.png"))
            scrolled = page.evaluate("document.documentElement.scrollWidth")
            if scrolled > width:
                wider[f"{name}-{device}"] = scrolled
            if (device, language) in (("desktop", "en"), ("small-phone", "fr")):
                assert Axe is not None, "axe-playwright-python is not installed"
                violations = axe_violations(page)
                found += [(name, device, v["id"], v["impact"]) for v in violations]
    # The page never scrolls sideways: a wide table scrolls in its own box (the standings'
    # rating column was cut at 390 px, the page 405 px wide; at 320 px the list of leagues
    # made its page 371 px wide, and the new league's French "Adhésion" select 363 px).
    assert wider == {}
    # Nothing axe finds, of any impact: the standings' section and the scrolling box of its
    # table were two regions of one name (landmark-unique, "moderate").
    assert found == []
    page.goto(f"{base}/leagues/vegas-nights/seasons/1/")
    assert "tables of 3, 2" in page.inner_text("#preview") or language == "fr"
