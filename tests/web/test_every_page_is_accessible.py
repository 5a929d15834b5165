"""Every page a player, a visitor or a league admin meets, in Chromium (docs/decisions/0032):
axe-core finds nothing serious on the pages the other browser tests leave out (a visitor's
board, lobby and home, the new-game form, a board waiting on another player, the trade
builder, resigning, deleting the account, the account pages, invitations, 403 and 404), in
English on a desktop and French on a phone, and none is wider than the phone; on the phone
every control of the board page is 44 px tall to a finger; by keyboard alone, a refused
message lands where the player is, read and focused, and a refused form puts the focus on
its first refused field. (The board mid-game to act, finished games, replays, ratings, the
settings, sign in and up and the league pages are axe-checked by
test_the_board_in_a_browser, test_the_account_pages_in_a_browser and
test_league_pages_in_a_browser.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from games import services
from leagues import manage as league_manage
from leagues import services as leagues
from tests.web.helpers import axe_violations
from tests.web.play import play, play_one
from tests.web.test_in_a_browser import pytestmark  # noqa: F401
from tests.web.test_the_board_in_a_browser import Axe, _open, browser  # noqa: F401

# What a finger meets on each control: 21 px above, below, left and right of its middle still
# hit it (its ::before included; a box's label with the box). Links inside sentences are
# exempt (WCAG's inline exception), as are controls inside closed disclosures.
TAPS = """() => {
  const hits = (e, x, y) => { const t = document.elementFromPoint(x, y);
    return t && (e.contains(t) || [...(e.labels || [])].some(l => l.contains(t))); };
  const out = [];
  const all = 'header a[href], main a[href], button, input:not([type=hidden]), select, '
    + 'textarea, summary';
  for (const e of document.querySelectorAll(all)) {
    if (e.classList.contains('skip') || !e.checkVisibility()) continue;
    const around = e.parentElement.textContent.trim().length;
    if (e.tagName === 'A' && around > e.textContent.trim().length + 2
        && !e.closest('.log-head, .next-game, .game-row')) continue;
    e.scrollIntoView({block: 'center'});
    let r = e.getBoundingClientRect();
    if (e.labels && e.labels[0] && (e.type === 'checkbox' || e.type === 'radio')) {
      const l = e.labels[0].getBoundingClientRect();
      r = {left: Math.min(r.left, l.left), right: Math.max(r.right, l.right),
           top: Math.min(r.top, l.top), bottom: Math.max(r.bottom, l.bottom)};
    }
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    if (!(hits(e, x, y - 21) && hits(e, x, y + 21) && hits(e, x - 21, y) && hits(e, x + 21, y)))
      out.push(e.tagName + ' ' + (e.id || e.name || '') + ' ' + e.textContent.trim().slice(0, 30));
  }
  return out;
}"""


def _problems(page: Page, where: str) -> list[Any]:
    found = axe_violations(page)
    problems: list[Any] = [
        (where, v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    if wide > 0:
        problems.append((where, "wider than the screen by", wide))
    return problems


def _focused(page: Page, element_id: str) -> None:
    """Wait until the element has the focus (polled: the page's CSP forbids the eval of
    Playwright's wait_for_function)."""
    for _ in range(50):
        if page.evaluate("document.activeElement.id") == element_id:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{element_id} never had the focus")


@pytest.mark.skipif(Axe is None, reason="axe-playwright-python is not installed")
def test_axe_on_every_page_the_others_leave_out(
    transactional_db: Any,
    live_server: Any,
    browser: Browser,  # noqa: F811 (the shared fixture, imported)
    make_game: Any,
    make_user: Any,
) -> None:
    ada, bob, cy = make_user("ada"), make_user("bob"), make_user("cy")
    lords = play(make_game(ada, bob, game_type="lords-of-vegas"), moves=20)
    if lords.seats.get(user=ada).to_act:  # ada waits: her page says "Not your turn"
        play_one(lords)
    vegas = play(make_game(ada, bob, game_type="vegas"), moves=6)
    table = services.create_game(creator=ada, game_type="vegas", seats=3, private=True)
    invitation = services.invite(game=table, by=ada, email="newcomer@example.org")
    league = leagues.create_league(creator=ada, name="Vegas Nights", game_type="vegas")
    asked = league_manage.invite(league=league, by=ada, email="friend@example.org")
    base = live_server.url
    signed_in = {
        "new-game": "/games/?game_type=lords-of-vegas#create",
        "board-waiting": f"/games/{lords.pk}/",
        "trade-builder": f"/games/{lords.pk}/trades/new/",
        "resign": f"/games/{vegas.pk}/resign/",
        "open-table": f"/games/{table.pk}/",
        "delete-account": "/profile/delete/",
        "email-addresses": "/accounts/email/",
        "password-change": "/accounts/password/change/",
        "sign-out": "/accounts/logout/",
        "404": "/games/999999/",
    }
    visitor = {
        "home": "/",
        "lobby": "/games/",
        "board": f"/games/{vegas.pk}/",
        "invitation": f"/games/invitations/{invitation.token}/",
        "password-reset": "/accounts/password/reset/",
    }
    problems: list[Any] = []
    for language, width in (("en", 1280), ("fr", 390)):
        for who in (ada, cy):
            who.language = language
            who.save(update_fields=["language"])
        page = _open(browser, base, ada, width)
        for name, url in signed_in.items():
            page.goto(f"{base}{url}")
            problems += _problems(page, f"{name} {language}")
        page.goto(f"{base}/leagues/invitations/{asked.token}/")  # (the page, then its link)
        problems += _problems(page, f"league invitation {language}")
        page.context.close()
        stranger = _open(browser, base, cy, width)
        stranger.goto(f"{base}/games/{table.pk}/")  # a private game: 403
        problems += _problems(stranger, f"403 {language}")
        stranger.context.close()
        context = browser.new_context(
            viewport={"width": width, "height": 900},
            extra_http_headers={"Accept-Language": language},
        )
        page = context.new_page()
        for name, url in visitor.items():
            page.goto(f"{base}{url}")
            problems += _problems(page, f"visitor {name} {language}")
        context.close()
    assert problems == []


def test_a_refused_message_is_said_where_the_player_is_and_a_refused_form_takes_the_focus(
    transactional_db: Any,
    live_server: Any,
    browser: Browser,  # noqa: F811 (the shared fixture, imported)
    make_game: Any,
    make_user: Any,
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    lords = play(make_game(ada, bob, game_type="lords-of-vegas"), moves=8)
    page = _open(browser, live_server.url, ada, 390)
    page.goto(f"{live_server.url}/games/{lords.pk}/")
    # On the phone, each control of the board page is at least 44 px tall to a finger.
    assert page.evaluate(TAPS) == []
    # Table talk, by keyboard: a message of spaces is refused; the refusal is in the talk
    # panel, in view, and has the focus (it was at the top of the page, out of sight).
    page.focus("#chat-text")
    page.keyboard.type("   ")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url("**#chat")
    _focused(page, "flash")
    assert page.evaluate("document.activeElement.closest('section').id") == "chat"
    assert "empty" in page.evaluate("document.activeElement.textContent")
    box = page.evaluate("document.activeElement.getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= 844
    # A message about a part the page redraws as the game goes on (the trades): it stays
    # when the other player acts (put inside the part, it vanished at its next redraw).
    p, q = lords.seats.get(user=ada), lords.seats.get(user=bob)
    offer = services.propose_trade(game=lords, user=ada, text=f"trade {p.colour} pays {q.colour} 1")
    page.goto(f"{live_server.url}/games/{lords.pk}/")
    page.click("#trades button:has-text('Withdraw')")
    page.wait_for_url("**#trades")
    _focused(page, "flash")
    said = page.inner_text("#flash")
    services.propose_trade(game=lords, user=bob, text=f"trade {q.colour} pays {p.colour} 1")
    page.locator("#trades", has_text=f"#{offer.pk + 1}").wait_for(timeout=15000)
    assert page.inner_text("#flash") == said and page.is_visible("#flash")
    # The settings refused: the focus is on the first refused field, which names its error.
    page.goto(f"{live_server.url}/profile/")
    page.fill("#id_display_name", "")
    page.click("section[aria-labelledby=h-settings] button[type=submit]")
    _focused(page, "id_display_name")
    described = page.evaluate("document.activeElement.getAttribute('aria-describedby')")
    errors = " ".join(page.locator(f"#{i}").inner_text() for i in described.split())
    assert page.evaluate("document.activeElement.getAttribute('aria-invalid')") == "true"
    assert "Choose a display name" in errors


def test_on_your_turn_the_first_screen_leads_to_the_move_form(
    transactional_db: Any,
    live_server: Any,
    browser: Browser,  # noqa: F811 (the shared fixture, imported)
    make_game: Any,
    make_user: Any,
) -> None:
    """On a phone the move form is screens below the top (3,406 px in a play-test): the
    turn line "Yours — make your move ↓" leads there, 44 px tall to a finger, and by
    keyboard the focus lands on the move panel, from which Tab goes into its form."""
    ada, bob = make_user("ada"), make_user("bob")
    lords = play(make_game(ada, bob, game_type="lords-of-vegas"), moves=8)
    if not lords.seats.get(user=ada).to_act:
        play_one(lords)
    page = _open(browser, live_server.url, ada, 390)
    page.goto(f"{live_server.url}/games/{lords.pk}/")
    link = page.locator("#to-move")
    assert " ".join(link.inner_text().split()).startswith("Yours — make your move")
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44 and box["y"] < 844
    assert page.evaluate(TAPS) == []
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**#move")
    _focused(page, "move")
    top = page.evaluate("document.getElementById('move').getBoundingClientRect().top")
    assert 0 <= top < 200
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('form').id") == "move-form"
    page.context.close()


def test_the_create_form_shows_the_time_bank_s_fields_with_the_time_bank_only(
    transactional_db: Any,
    live_server: Any,
    browser: Browser,  # noqa: F811 (the shared fixture, imported)
    make_user: Any,
) -> None:
    """The three time-bank fields showed under a fixed clock (by CSS alone, no script)."""
    page = _open(browser, live_server.url, make_user("ada"), 390)
    page.goto(f"{live_server.url}/games/?game_type=lords-of-vegas#create")
    bank = ("#id_bank_hours", "#id_increment_hours", "#id_cap_hours")
    assert page.input_value("#id_clock") == "fixed"
    assert not any(page.is_visible(field) for field in bank)
    page.select_option("#id_clock", "bank")
    assert all(page.is_visible(field) for field in bank)
    page.context.close()
