"""A whole table without the API, in a real browser against the live server, with a real
SMTP server: Ada signs up, creates a Lords of Vegas game, invites Bob by name and a new
person by email; the new person signs up through the emailed link; Ada adds a bot and
starts; everyone is emailed; the table plays turns on the web (a legal command's button, the
confirm step, `end`) and by replies to the 'your turn' emails, then Bob resigns by email and
the first legal command plays to the end. Screenshots (desktop and phone, English and French) go
to SHOTS_DIR (default var/screenshots/table/)."""

from __future__ import annotations

import os
import re
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from accounts.models import User
from games.models import Game, Seat
from tests.conftest import PASSWORD
from tests.notifications.conftest import (
    WAIT,
    commands_offered,
    deliver,
    html_part,
    play,
    reply_to,
    text_part,
)
from tests.web.helpers import actor, shoot
from tests.web.signing_up import CODE
from tests.web.test_in_a_browser import ARGS, CHROMIUM, _missing, sync_playwright

pytestmark = [
    pytest.mark.skipif(bool(_missing), reason=f"NO BROWSER TESTS: {_missing}"),
    pytest.mark.slow,
]

SHOTS = Path(
    os.environ.get("SHOTS_DIR", Path(__file__).resolve().parents[2] / "var/screenshots/table")
)
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
DOORS = ("web", "email") * 3
"""The turns played by people after the start, before Bob resigns: each door several times."""


def _shots(browser: Any, base: str, path: str, name: str, cookies: list[Any]) -> None:
    """The page at ``path`` in both sizes and both languages (the language cookie)."""
    for lang in ("en", "fr"):
        for size, (width, height) in SIZES.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies([*cookies, {"name": "django_language", "value": lang, "url": base}])
            page = context.new_page()
            page.goto(base + path)
            shoot(page, str(SHOTS / f"{name}-{size}-{lang}.png"))
            context.close()


def _email_shots(browser: Any, html: str, name: str) -> None:
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_content(html)
        shoot(page, str(SHOTS / f"{name}-{size}.png"))
        context.close()


def _type_the_code(page: Any, smtp: Any, email: str, mails: int) -> None:
    """On the code page the sign-up leads to, type the code of the ``mails``-th email (the
    last one to ``email``), as the newcomer reads it, and confirm."""
    page.wait_for_selector("input[name=code]")
    smtp.wait_for(mails)
    found = CODE.search(text_part(smtp.to(email)[-1]))
    assert found is not None, text_part(smtp.to(email)[-1])
    page.fill("input[name=code]", found.group(1))
    page.click("form button.primary")


def _link(message: Any) -> str:
    found = re.search(r"https?://\S+(/games/invitations/[\w-]+/)", text_part(message))
    assert found, text_part(message)
    return found.group(1)


def _mail_to(smtp: Any, address: str, subject: str, since: int) -> EmailMessage:
    """The latest email to ``address`` whose subject has ``subject``, arrived after the
    first ``since`` messages (waits, bounded: the hooks send after their commit)."""
    deadline = time.monotonic() + WAIT
    while True:
        found = [m for m in smtp.messages[since:] if m["To"] == address and subject in m["Subject"]]
        if found:
            return found[-1]
        assert time.monotonic() < deadline, f"no {subject!r} email to {address}"
        smtp.wait_for(len(smtp.messages) + 1, timeout=1)


def _open(page: Any, url: str) -> None:
    """``page.goto(url)``, once more if the page's own reload cut it short: a board page
    left open reloads itself when a new part appears (``live.js``), which aborts a
    navigation in flight, as a player's click would be. Chromium says so in one of two ways,
    as the reload starts before or after it (``net::ERR_ABORTED``, or the navigation "is
    interrupted by another navigation" to the page's ``#table``: a CI run failed on the
    second)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.goto(url)
    except PlaywrightError as exc:
        cut_short = ("ERR_ABORTED", "interrupted by another navigation")
        if not any(words in str(exc) for words in cut_short):
            raise
        page.goto(url)


def _web_turn(page: Any, url: str) -> str:
    """A turn on the game page: a legal command's button, yes on the confirm step (the
    command seen in the log), then ``end`` typed and sent; the command played."""
    _open(page, url)
    page.wait_for_selector('#move-form button.cmd[value="end"]', state="attached")
    buttons = page.locator('#move-form button.cmd:not([value="end"])')
    if not buttons.count():  # the game is dealt at random: a turn may offer only bets and end
        return _web_end(page)
    button = buttons.first
    if not button.is_visible():  # its group is folded: open it as a player would
        button.locator("xpath=ancestor::details[1]/summary").click()
    choice = str(button.get_attribute("value"))
    button.click()
    page.wait_for_selector("#confirm-form")
    assert choice in page.inner_text("#confirm-form")
    with page.expect_navigation():
        page.click("#confirm-form button.primary")
    assert f"Played: {choice}" in page.inner_text(".message.success")
    assert choice in page.inner_text("#log")
    _web_end(page)
    return choice


def _web_end(page: Any) -> str:
    """``end`` typed and sent on the game page."""
    page.fill("#move-form textarea[name=text]", "end")
    with page.expect_navigation():
        page.click("#move-form > button.primary")
    assert "Played: end" in page.inner_text(".message.success")
    return "end"


def _email_turn(smtp: Any, address: str) -> str:
    """A turn by replying to the latest 'your turn' email with the first command it offers,
    then ``end`` in a reply to the answer (a command that rolls dice or turns a card, a
    bet or a build that ties, must come last, decision 0026: the test sent both in one reply
    and failed whenever the deal offered one first); each answer says "Played"."""
    turn = _mail_to(smtp, address, "Your turn", 0)
    # (the game is dealt at random: a turn may offer only bets and end)
    command = next((c for c in commands_offered(turn) if c != "end"), "end")
    answer = _email_reply(smtp, turn, command, address)
    if command != "end":
        _email_reply(smtp, answer, "end", address)
    return command


def _email_reply(smtp: Any, message: Any, text: str, address: str) -> Any:
    """``text`` sent as a reply to ``message``; the answer, which says it was played."""
    before = len(smtp.messages)
    printed = deliver(reply_to(message, text, sender=address))
    assert printed.startswith("played:"), printed
    answer = _mail_to(smtp, address, "Played", before)
    assert text in answer["Subject"]
    return answer


def test_a_whole_table_without_the_api(
    transactional_db: Any,
    live_server: Any,
    smtp: Any,
    monkeypatch: pytest.MonkeyPatch,
    make_user: Any,
    settings: Any,
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.SITE_URL = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    bob = make_user("bob", display_name="Bob")
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        _shots(browser, base, "/", "home-signed-out", [])
        ada_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ada_ctx.set_default_timeout(15_000)
        ada = ada_ctx.new_page()
        # Ada signs up and lands on her desk.
        ada.goto(f"{base}/accounts/signup/")
        ada.fill("input[name=email]", "ada@example.org")
        ada.fill("input[name=password1]", PASSWORD)
        ada.fill("input[name=password2]", PASSWORD)
        ada.fill("input[name=display_name]", "Ada")
        ada.click("form button[type=submit]")
        _type_the_code(ada, smtp, "ada@example.org", 1)  # (the code page: decision 0034)
        ada.wait_for_url(f"{base}/")
        assert "Waiting for you" in ada.inner_text("main")
        # The game first, then its options; two invitations with it.
        ada.goto(f"{base}/games/")
        ada.click("text=Lords of Vegas")
        _shots(browser, base, "/games/?game_type=lords-of-vegas", "create", ada_ctx.cookies())
        ada.fill("#id_seats", "4")
        ada.fill("#id_invite", "Bob, newcomer@example.org")
        ada.click("#create-form button[type=submit]")
        ada.wait_for_selector("#invitations")
        game = Game.objects.get(created_by__email="ada@example.org")
        assert "Bob" in ada.inner_text("#invitations")
        assert "newcomer@example.org" in ada.inner_text("#invitations")
        mails = smtp.wait_for(3)
        to_new = next(m for m in mails if m["To"] == "newcomer@example.org")
        to_bob = next(m for m in mails if m["To"] == bob.email)
        _email_shots(browser, html_part(to_new), "invitation-email")
        # The new person signs up through the link, and takes the seat.
        new_ctx = browser.new_context(viewport={"width": 390, "height": 844})
        new_ctx.set_default_timeout(15_000)
        newcomer = new_ctx.new_page()
        newcomer.goto(base + _link(to_new))
        newcomer.click("a.button.primary")  # Sign up
        # (the link seats whoever follows it: the address is theirs to give, decision 0024)
        newcomer.fill("input[name=email]", "newcomer@example.org")
        newcomer.fill("input[name=password1]", PASSWORD)
        newcomer.fill("input[name=password2]", PASSWORD)
        newcomer.fill("input[name=display_name]", "Newcomer")
        newcomer.click("form button[type=submit]")
        _type_the_code(newcomer, smtp, "newcomer@example.org", 4)  # back on the invitation
        newcomer.wait_for_selector("text=Accept: take a seat")
        newcomer.click("text=Accept: take a seat")
        newcomer.wait_for_selector(".message.success")
        # Bob signs in, and accepts from the link.
        bob_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        bob_ctx.set_default_timeout(15_000)
        bob_page = bob_ctx.new_page()
        bob_page.goto(f"{base}/accounts/login/?next={_link(to_bob)}")
        bob_page.fill("input[name=login]", bob.email)
        bob_page.fill("input[name=password]", PASSWORD)
        bob_page.click("form button[type=submit]")
        bob_page.click("text=Accept: take a seat")
        bob_page.wait_for_selector(".message.success")
        # Ada adds a bot and starts.
        ada.goto(f"{base}/games/{game.pk}/")
        _shots(browser, base, f"/games/{game.pk}/", "waiting-table", ada_ctx.cookies())
        ada.click("text=Add a greedy bot")
        ada.wait_for_selector("text=Start the game")
        before = len(smtp.messages)
        ada.click("text=Start the game")
        ada.wait_for_selector(".message.success")
        started = smtp.wait_for(before + 3)[before:]
        told = {m["To"] for m in started if "has started" in m["Subject"]}
        assert told == {"ada@example.org", bob.email, "newcomer@example.org"}
        _shots(browser, base, "/", "home-signed-in", ada_ctx.cookies())
        # The table plays: turns on the web and by email replies, each next player told.
        pages = {"ada@example.org": ada, bob.email: bob_page, "newcomer@example.org": newcomer}
        played = {"web": 0, "email": 0}  # commands sent through each door
        for door in DOORS:
            address = actor(game).email
            before = len(smtp.messages)
            if door == "web":
                choice = _web_turn(pages[address], f"{base}/games/{game.pk}/")
            else:
                choice = _email_turn(smtp, address)
            played[door] += 1 if choice == "end" else 2
            _mail_to(smtp, actor(game).email, "Your turn", before)
        sources = list(game.moves.exclude(seq=0).values_list("source", flat=True))
        assert (sources.count("web"), sources.count("email")) == (played["web"], played["email"])
        # Bob resigns by email, from the email that told him of the start.
        bobs = [m for m in smtp.messages if m["To"] == bob.email and "has started" in m["Subject"]]
        deliver(reply_to(bobs[-1], f"resign game {game.pk}", sender=bob.email))
        assert Seat.objects.get(game=game, user=bob).resigned
        # The rest: the first legal command for whoever is to act, to the end.
        play(game)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        ada.goto(f"{base}/games/{game.pk}/")
        assert "Result" in ada.inner_text("main")
        assert User.objects.get(email="newcomer@example.org")
        browser.close()
    connections.close_all()  # (Playwright's loop held them: see test_in_a_browser)
