"""Helpers of the web door tests: who must act, the form as the page drew it, and a
footprint of what a refused request must leave untouched."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from games.models import Game, Move, Seat, TradeOffer

HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')


def actor(game: Game) -> Any:
    """The user the game waits on (one person: the tests seat no bots in front of them)."""
    seat = Seat.objects.filter(game=game, to_act=True, user__isnull=False).first()
    assert seat is not None, "the game waits on nobody"
    return seat.user


def other(game: Game, user: Any) -> Any:
    seat = Seat.objects.filter(game=game, user__isnull=False).exclude(user=user).first()
    assert seat is not None
    return seat.user


def drawn_form(html: str) -> dict[str, str]:
    """The hidden fields of the move form as the page drew them."""
    form = html[html.index('id="move-form"') :]
    form = form[: form.index("</form>")]
    return dict(HIDDEN.findall(form))


def footprint(game: Game) -> tuple[Any, ...]:
    """What any write would change: the game row, its Moves, its offers."""
    game.refresh_from_db()
    return (
        game.version,
        game.status,
        game.state,
        list(Move.objects.filter(game=game).values_list("seq", "source", "text")),
        TradeOffer.objects.filter(game=game).count(),
    )


def page_text(html: str) -> str:
    """The page without its tags, whitespace squeezed (what a reader sees)."""
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html_lib.unescape(text))


SHADOWLESS = "document.querySelectorAll('.table-wrap').forEach(e => e.style.background = 'none')"
"""Takes off the scrolling tables' edge shadows (a gradient background): axe cannot tell the
colour under a gradient and leaves that text's contrast unchecked (found by review). (Set
through the CSSOM: the pages' CSP refuses an inline style sheet.)"""


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on ``page`` (Playwright), checked with the tables' edge shadows taken
    off, so that every table's text has its contrast checked (the shadows only darken an
    edge while more of the table lies beyond it)."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(SHADOWLESS)
    return list(Axe().run(page).response["violations"])


def shoot(page: Any, path: Any) -> None:
    """A whole-page screenshot to look at, taken again once if Chromium refuses it, then of
    the window alone. The screenshots are for people to look at, not what a test asserts,
    and headless Chromium now and then answers "Unable to capture screenshot" to a page
    taller than its 16,384 px surface (a finished game's board on a 320 px phone is 24,800:
    a CI run failed on it), which is no fault of the page."""
    from playwright.sync_api import Error

    for whole in (True, True, False):
        try:
            page.screenshot(path=str(path), full_page=whole)
            return
        except Error:
            page.wait_for_timeout(200)
    raise AssertionError(f"Chromium took no screenshot for {path}")
