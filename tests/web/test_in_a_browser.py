"""The pages in a real browser (headless Chromium through Playwright, against the live
server): sign in on the real login page, open a game, play a legal command with the form and
see the board and the log change; play an illegal one and see the error. Screenshots go to
var/screenshots/ (look at them).

Needs the Debian ``chromium`` package and the ``playwright`` Python package (no
``playwright install``: the browser comes from the system); without them these tests are
skipped with the reason, loudly."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from games import selectors
from tests.conftest import PASSWORD
from tests.web.helpers import actor, shoot

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

try:
    from playwright.sync_api import Page, sync_playwright
except ImportError:  # pragma: no cover - reported by the skip below
    sync_playwright = None  # type: ignore[assignment]

_missing = (
    "the playwright Python package is not installed (pip install playwright)"
    if sync_playwright is None
    else f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM))
    else ""
)
if _missing:
    print(f"\n\033[41;97m SKIPPED: browser tests of the web pages: {_missing} \033[0m")

pytestmark = [
    pytest.mark.skipif(bool(_missing), reason=f"NO BROWSER TESTS: {_missing}"),
    pytest.mark.slow,
]


@pytest.fixture
def page(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by the
    # test itself between browser steps are still plain synchronous calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        context.set_default_timeout(15_000)
        yield context.new_page()
        browser.close()
        # While Playwright's loop runs, the ORM's connections belong to its context (asgiref
        # locals): close them here, or the test database cannot be dropped at the end.
        connections.close_all()


def _sign_in(page: Page, base: str, user: Any) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")


def _shot(page: Page, name: str) -> None:
    shoot(page, str(SHOTS / f"{name}.png"))


def _first_legal(game: Any, user: Any) -> str:
    return str(selectors.game_view(game=game, user=user)["legal_commands"][0]["text"])


@pytest.mark.parametrize("game_type", ["lords-of-vegas", "vegas"])
def test_a_player_signs_in_and_plays_with_the_form(
    transactional_db: Any,
    live_server: Any,
    page: Page,
    make_game: Any,
    make_user: Any,
    game_type: str,
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type=game_type)
    player = actor(game)
    command = _first_legal(game, player)
    base = live_server.url
    _sign_in(page, base, player)
    page.click("text=My games")
    _shot(page, f"lobby-{game_type}")
    page.goto(f"{base}/games/{game.pk}/")
    assert page.inner_text("#version") == str(game.version)
    _shot(page, f"{game_type}-before")
    page.fill("#id_text", command)
    page.click("#move-form button.primary")
    page.wait_for_selector(".message.success")
    assert f"Played: {command}" in page.inner_text(".messages")
    assert page.inner_text("#version") != str(game.version)
    assert command in page.inner_text("#log")
    _shot(page, f"{game_type}-after")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    _shot(page, f"{game_type}-phone")


def test_an_illegal_command_shows_the_error(
    transactional_db: Any, live_server: Any, page: Page, make_game: Any, make_user: Any
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type="lords-of-vegas")
    player = actor(game)
    view = selectors.game_view(game=game, user=player)["view"]
    lot = next(name for name in ("A1", "A2", "A4", "A5", "B1") if name not in view["markers"])
    _sign_in(page, live_server.url, player)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#id_text", f"build {lot} sphinx")
    page.click("#move-form button.primary")
    page.wait_for_selector("#move-error")
    assert lot in page.inner_text("#move-error")
    assert page.input_value("#id_text") == f"build {lot} sphinx"
    assert page.inner_text("#version") == str(game.version)
    _shot(page, "lords-of-vegas-illegal")
