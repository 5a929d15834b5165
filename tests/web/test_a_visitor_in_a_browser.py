"""A signed-out visitor in a real browser (headless Chromium, as ``test_in_a_browser``): the
shared link of a public game opens its board, with the call to sign up, and the page follows
the game as a player's does (live.js), with nothing said in the console."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import shoot
from tests.web.play import play_one
from tests.web.test_in_a_browser import SHOTS, page, pytestmark  # noqa: F401 (a fixture, a skip)


def test_a_visitor_watches_a_public_game_follow_its_moves(
    transactional_db: Any,
    live_server: Any,
    page: Page,  # noqa: F811 (the fixture imported above)
    make_game: Any,
    make_user: Any,
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "2024"})
    page.set_viewport_size({"width": 390, "height": 844})  # a phone, the link shared to it
    said: list[str] = []  # the scripts' errors and the requests refused (a resource that
    # fails is said in the console too: by its address here)
    page.on("pageerror", lambda e: said.append(str(e)))
    page.on(
        "console",
        lambda m: (
            said.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.on(
        "response",
        lambda r: said.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#board .lov-grid")).to_be_visible()
    cta = page.locator("#sign-up-to-play")
    expect(cta).to_contain_text("Sign in or create an account to play")
    expect(cta.locator("#visitor-sign-up")).to_have_attribute(
        "href", f"/accounts/signup/?next=/games/{game.pk}/"
    )
    assert page.locator("#move-form, #chat-form, #notes, form[method=post]").count() == 0
    shoot(page, str(SHOTS / "visitor-phone.png"))
    page.evaluate("window.notReloaded = true")
    play_one(game)
    game.refresh_from_db()
    expect(page.locator("#version")).to_have_text(str(game.version), timeout=20_000)
    assert page.evaluate("window.notReloaded") is True  # swapped in by live.js
    assert page.url.endswith(f"/games/{game.pk}/")  # no redirect on the way
    assert said == []
