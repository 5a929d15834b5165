"""allauth's sign-up, sign-in and code pages in Chromium on a phone
(tests/web/test_the_account_pages.py reads their markup): the account pages' stylesheet loads
under the site's CSP, each input takes its card's width, nothing is wider than the phone, and
axe-core finds no serious violation."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.web.helpers import axe_violations
from tests.web.test_in_a_browser import page, pytestmark  # noqa: F401 (a fixture, a skip)

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the test below says so
    Axe = None

from playwright.sync_api import Page

# Each text input's width less its .field's (0: the input takes the card's width).
SPARE_WIDTH = """() => [...document.querySelectorAll(
    'main .field > input:not([type=checkbox]):not([type=radio])')].map(
    i => [i.name, Math.round(i.parentElement.clientWidth - i.getBoundingClientRect().width)])"""


@pytest.fixture
def phone(page: Page) -> Page:  # noqa: F811 (the fixture imported above)
    """``test_in_a_browser``'s page, phone-sized."""
    page.set_viewport_size({"width": 390, "height": 844})
    return page


@pytest.mark.skipif(Axe is None, reason="axe-playwright-python is not installed")
def test_sign_up_and_sign_in_on_a_phone(
    transactional_db: Any, live_server: Any, phone: Page, make_user: Any
) -> None:
    ada = make_user("ada")
    blocked: list[str] = []  # what the policy refused, and any file the pages asked in vain
    phone.on("console", lambda m: blocked.append(m.text) if "Security Policy" in m.text else None)
    phone.on(
        "response",
        lambda r: blocked.append(r.url) if r.status >= 400 else None,
    )
    phone.goto(f"{live_server.url}/accounts/signup/")
    phone.fill("input[name=email]", ada.email)  # taken
    phone.fill("input[name=display_name]", "Ada")
    phone.fill("input[name=password1]", "short")
    phone.fill("input[name=password2]", "short")
    phone.click("form button[type=submit]")
    phone.wait_for_selector(".field.has-error")
    problems: list[Any] = []

    def the_code_page() -> None:  # where a sign-up leads (decision 0034)
        phone.goto(f"{live_server.url}/accounts/signup/")
        phone.fill("input[name=email]", f"zed-{uuid.uuid4().hex[:12]}@example.org")
        phone.fill("input[name=display_name]", "Zed")
        for field in ("password1", "password2"):
            phone.fill(f"input[name={field}]", "a-long-pass-9")
        phone.click("form button[type=submit]")
        phone.wait_for_selector("input[name=code]")
        assert phone.inner_text("main form button.primary") == "Confirm"

    steps = (
        ("sign-up refused", lambda: None),
        ("/accounts/login/", lambda: phone.goto(f"{live_server.url}/accounts/login/")),
        ("the code page", the_code_page),
    )
    for where, go_there in steps:
        go_there()
        assert phone.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") != (
            "1200px"
        ), f"{where}: the account pages' stylesheet did not load"
        problems += [(where, name, spare) for name, spare in phone.evaluate(SPARE_WIDTH) if spare]
        wide = phone.evaluate("document.documentElement.scrollWidth - innerWidth")
        if wide > 0:
            problems.append((where, "wider than the phone by", wide))
        found = axe_violations(phone)
        problems += [
            (where, v["id"], v["impact"], len(v["nodes"]))
            for v in found
            if v["impact"] in ("serious", "critical")
        ]
    assert problems == []
    assert blocked == []
