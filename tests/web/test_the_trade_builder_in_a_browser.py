"""The trade builder in a real browser (issue 11), under the strict CSP and without
JavaScript of ours: Ada picks the parties on the board page, what each gives, previews the
trade and proposes it; the same preview in French. Screenshots (desktop 1280 and phone 390,
English and French) go to /tmp/shots_p/ (look at them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.models import TradeOffer
from tests.web.helpers import shoot
from tests.web.test_in_a_browser import _missing, _sign_in, page  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.skipif(bool(_missing), reason=f"NO BROWSER TESTS: {_missing}"),
    pytest.mark.slow,
]
SHOTS = Path("/tmp/shots_p")


def _shots(tab: Any, name: str, part: str | None = None) -> None:
    """Desktop and phone; the whole page, or one part of it (``part``: a selector)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, label in ((1280, "desktop"), (390, "phone")):
        tab.set_viewport_size({"width": width, "height": 900})
        path = str(SHOTS / f"{name}-{label}.png")
        if part is None:
            shoot(tab, path)
        else:
            tab.locator(part).screenshot(path=path)
    tab.set_viewport_size({"width": 1280, "height": 900})


def test_a_trade_built_previewed_and_proposed_in_a_browser(
    transactional_db: Any,
    live_server: Any,
    page: Any,  # noqa: F811 (the fixture imported above)
    make_game: Any,
    make_user: Any,
) -> None:
    ada, bob, cy = make_user("ada"), make_user("bob"), make_user("cy")
    game = make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)
    a, b = (game.seats.get(user=u) for u in (ada, bob))
    lot = sorted(k for k, owner in game.state["markers"].items() if owner == b.order)[0]
    refusals: list[str] = []
    page.on("console", lambda m: refusals.append(m.text) if "Content Security" in m.text else None)
    base = live_server.url
    _sign_in(page, base, ada)
    page.goto(f"{base}/games/{game.pk}/")
    page.check(f"#trade-builder-start input[value='{b.order}']")
    page.click("#trade-builder-start button[type=submit]")
    page.wait_for_selector("#builder-pieces")
    # Each step puts the player at its own heading and marks itself current (it went back
    # to the page's top: 49 presses of Tab to reach "Propose the trade").
    assert page.evaluate("document.activeElement.id") == "h-pieces"
    assert page.get_attribute(".builder-steps li[aria-current=step]", "class") == "current"
    page.fill(f"#pay_{a.order}_{b.order}", "3")
    page.select_option(f"#lot_{lot}", str(a.order))
    _shots(page, "builder-pieces-en")
    # On a 390 px phone "keeps it" shows whole beside its arrow (the select was 85 px wide
    # and the arrow covered its last letter).
    page.set_viewport_size({"width": 390, "height": 900})
    widths = page.eval_on_selector_all(
        ".builder-party select", "all => all.map(s => s.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 140, widths
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#builder-pieces button[type=submit]")
    page.wait_for_selector("#builder-preview")
    assert page.evaluate("document.activeElement.id") == "h-preview"
    said = page.inner_text("#builder-preview")
    assert f"gives the parking lot {lot} to {ada.name}" in said
    assert f"{ada.name} pays {bob.name} $3m." in said  # the dry run's account
    _shots(page, "builder-preview-en")
    preview = page.url

    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": base}])
    page.goto(preview)
    page.wait_for_selector("#builder-preview")
    _shots(page, "builder-preview-fr")
    page.goto(f"{base}/games/{game.pk}/")
    _shots(page, "board-trades-fr", "#trades")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])

    page.goto(preview)
    page.click("#builder-propose button[type=submit]")
    page.wait_for_selector(".offers")
    offer = TradeOffer.objects.get(game=game)
    assert (
        offer.text
        == f"trade {a.colour} pays {b.colour} 3, {b.colour} gives lot {lot} to {a.colour}"
    )
    assert not refusals, refusals
