"""The board page in real browsers (headless Chromium, as ``test_in_a_browser``): a move made
in one browser appears in another without a reload; a finished game's replay stepped from the
first move to the last shows each position the engine's replay gives; axe-core (bundled with
axe-playwright-python, no network) finds no serious or critical violation on the pages a
player uses, and no page is wider than a phone. Screenshots of both games, mid-game and
finished, desktop and phone, English and French, go to /tmp/shots_m/ (SHOTS_DIR)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from games.engines.registry import get_engine
from games.models import Game, Move
from tests.web.helpers import axe_violations, shoot
from tests.web.play import play, play_one
from tests.web.test_in_a_browser import ARGS, CHROMIUM, _missing, _sign_in, pytestmark  # noqa: F401

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the test below says so
    Axe = None

from playwright.sync_api import Browser, Page, expect, sync_playwright

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots_m"))


@pytest.fixture
def browser(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        found = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield found
        found.close()
        connections.close_all()


def _open(browser: Browser, base: str, user: Any, width: int = 1280) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 1000})
    context.set_default_timeout(15_000)
    page = context.new_page()
    _sign_in(page, base, user)
    return page


def test_a_move_in_one_browser_appears_in_the_other_without_reload(
    transactional_db: Any, live_server: Any, browser: Browser, make_game: Any, make_user: Any
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type="vegas")
    url = f"{live_server.url}/games/{game.pk}/"
    pages = {u.pk: _open(browser, live_server.url, u) for u in (ada, bob)}
    for page in pages.values():
        page.goto(url)
        page.evaluate("window.notReloaded = true")
    mover = game.seats.get(to_act=True).user
    watcher = pages[bob.pk if mover == ada else ada.pk]
    before = watcher.inner_text("#version")
    watcher.click("#board-list summary")  # a disclosure the player opened stays open
    watcher.focus("#chat-form button")  # (in no redrawn part)
    watcher.focus("#moves a >> nth=0")  # a link in a part the move redraws
    here = pages[mover.pk]
    here.click("#move-form button.cmd >> nth=0")  # a button: the confirm step, then yes
    here.click("#confirm-form button.primary")
    here.wait_for_selector(".message.success")
    game.refresh_from_db()
    expect(watcher.locator("#version")).to_have_text(str(game.version), timeout=20_000)
    assert watcher.evaluate("window.notReloaded") is True  # swapped in, not reloaded
    assert watcher.inner_text("#version") != before
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.text in watcher.inner_text("#log")
    # The focus stayed on the link (the part was redrawn around it), and a screen reader
    # hears what happened: the move's sentence, then that it is the watcher's turn.
    assert watcher.evaluate("document.activeElement.closest('#moves') !== null")
    assert watcher.evaluate("document.getElementById('board-list').open") is True
    expect(watcher.locator("#live-news")).to_contain_text("Your turn", timeout=10_000)
    sentence = watcher.inner_text("#log .sentences li >> nth=0")
    assert sentence in watcher.inner_text("#live-news")
    # Table talk comes in live too, and is said.
    here.fill("#chat-text", "Good luck on the next roll")
    here.click("#chat-form button")
    expect(watcher.locator("#chat-log")).to_contain_text(
        "Good luck on the next roll", timeout=20_000
    )
    expect(watcher.locator("#live-news")).to_contain_text("Good luck on the next roll")
    assert watcher.evaluate("window.notReloaded") is True


def _positions(game: Game) -> list[str]:
    """The engine's replay: the text board after each move, as everyone may see it after
    the end (a seat's money from the notes it won)."""
    engine = get_engine(game.game_type)
    players = game.seats.count()
    state, _ = engine.new_game(players, game.options, game.seed)
    texts = []
    for move in Move.objects.filter(game=game).order_by("seq").select_related("seat"):
        if move.seq and move.command is not None:
            seat = move.seat.order if move.seat is not None else None
            state, _ = engine.apply(state, seat, engine.command_from_json(move.command))
        view = engine.view(state, None)
        for entry in view.get("seats", []):
            entry["money"] = sum(state["won"][entry["seat"]])
        texts.append(engine.render_text(view).strip())
    return texts


def test_the_replay_of_a_finished_game_steps_through_every_position(
    transactional_db: Any, live_server: Any, browser: Browser, make_game: Any, make_user: Any
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = play(make_game(ada, bob, game_type="vegas"))
    assert game.status == Game.Status.FINISHED
    expected = _positions(game)
    page = _open(browser, live_server.url, ada)
    page.goto(f"{live_server.url}/games/{game.pk}/moves/0/")
    for seq, text in enumerate(expected):
        assert page.url.endswith(f"/games/{game.pk}/moves/{seq}/")
        assert (page.text_content("#replay-text") or "").strip() == text, seq
        if seq < game.version:
            page.click("#replay-forward")
    assert page.locator("#replay-forward").count() == 0  # the last move: nothing after


PAGES = {
    "home": "/",
    "lobby": "/games/",
    "settings": "/profile/",
}


@pytest.mark.skipif(Axe is None, reason="axe-playwright-python is not installed")
def test_axe_finds_nothing_serious_and_the_screenshots(
    transactional_db: Any, live_server: Any, browser: Browser, make_game: Any, make_user: Any
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    games = {
        "lords-mid": play(make_game(ada, bob, game_type="lords-of-vegas"), moves=30),
        "vegas-mid": play(make_game(ada, bob, game_type="vegas"), moves=14),
        "lords-end": play(make_game(ada, bob, game_type="lords-of-vegas")),
        "vegas-end": play(make_game(ada, bob, game_type="vegas")),
    }
    for name in ("lords-mid", "vegas-mid"):  # the viewer to act: the move panel shows
        if games[name].seats.get(user=ada).to_act is False:
            play_one(games[name])
    urls = dict(PAGES)  # the ratings, with the finished games': their tables may scroll
    urls["ratings"] = "/ratings/lords-of-vegas/"
    urls["player-ratings"] = f"/ratings/players/{ada.pk}/"
    for name, game in games.items():
        urls[f"board-{name}"] = f"/games/{game.pk}/"
        urls[f"replay-{name}"] = f"/games/{game.pk}/moves/{max(game.version - 3, 0)}/"
    problems = []
    for language in ("en", "fr"):
        ada.language = language
        ada.save(update_fields=["language"])
        for width, device in ((1280, "desktop"), (320, "phone")):  # the narrowest phones
            page = _open(browser, live_server.url, ada, width)
            for name, url in urls.items():
                page.goto(f"{live_server.url}{url}")
                shoot(page, str(SHOTS / f"{name}-{device}-{language}.png"))
                if device == "phone":  # nothing wider than the phone (French words are longer)
                    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
                    if wide > 0:
                        problems.append((name, language, "wider than the phone by", wide))
                if name == "board-lords-mid" and device == "desktop":
                    problems += _colour_alone(page, language)
                if (device, language) in (("desktop", "en"), ("phone", "fr")):
                    found = axe_violations(page)
                    problems += [
                        (name, v["id"], v["impact"], len(v["nodes"]))
                        for v in found
                        if v["impact"] in ("serious", "critical")
                    ]
            page.context.close()
    assert problems == []


SHAPE = "(el) => getComputedStyle(el, '::after').content"


def _colour_alone(page: Page, language: str) -> list[tuple[Any, ...]]:
    """Whose die, parking lot and score marker is which is not said by colour alone (WCAG
    1.4.1): each seat's colour has its own shape, the same in the players' table (the key)
    as on the board; the score track's markers are named in the reader's language."""
    problems: list[tuple[Any, ...]] = []
    key = {}
    for swatch in page.locator("#table .swatch[class*=colour-]").all():
        colour = next(c for c in (swatch.get_attribute("class") or "").split() if "colour-" in c)
        key[colour] = swatch.evaluate(SHAPE)
    if len(set(key.values())) != len(key) or any(v in ("none", "") for v in key.values()):
        problems.append(("players' shapes", key))
    for item in page.locator(".lov-grid .die[class*=colour-], .lov-grid .marker").all():
        colour = next(c for c in (item.get_attribute("class") or "").split() if "colour-" in c)
        if item.evaluate(SHAPE) != key.get(colour):
            problems.append(("a board piece without its owner's shape", colour))
    names = page.locator(".track .swatch").evaluate_all("els => els.map(e => e.ariaLabel)")
    english = {"black", "blue", "green", "purple", "red", "yellow"}
    if language != "en" and set(names) & english:
        problems.append(("track markers named in English", names))
    return problems
