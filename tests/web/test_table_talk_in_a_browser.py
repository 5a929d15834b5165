"""Table talk and a trade offer in a real browser (issue 11), under the strict CSP, without
JavaScript of ours: Ada says something on the board page and proposes a trade; Bob's page
shows both, and the offer's email reads on a desktop and a phone (screenshots)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from notifications.models import Notification
from tests.web.helpers import shoot
from tests.web.test_in_a_browser import _missing, _sign_in, page  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.skipif(bool(_missing), reason=f"NO BROWSER TESTS: {_missing}"),
    pytest.mark.slow,
]
SHOTS = Path("/tmp/shots_n")


def _shots(tab: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, label in ((1280, "desktop"), (390, "phone")):
        tab.set_viewport_size({"width": width, "height": 900})
        shoot(tab, str(SHOTS / f"{name}-{label}.png"))
    tab.set_viewport_size({"width": 1280, "height": 900})


def test_chat_and_an_offer_in_a_browser(
    transactional_db: Any,
    live_server: Any,
    page: Any,  # noqa: F811 (the fixture imported above)
    make_game: Any,
    make_user: Any,
    smtp: Any,
) -> None:
    from games.services.hooks import announce_pending

    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    colour = {s.user_id: s.colour for s in game.seats.all()}
    base = live_server.url
    _sign_in(page, base, ada)
    page.goto(f"{base}/games/{game.pk}/")
    page.fill("#chat-text", "Hello <script>alert(1)</script> table")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat-log")
    assert "<script>alert(1)</script>" in page.inner_text("#chat-log")  # shown as text
    page.fill("#trade-form textarea", f"trade {colour[ada.pk]} pays {colour[bob.pk]} 2")
    page.click("#trade-form button[type=submit]")
    page.wait_for_selector(".offers")
    _shots(page, "board-chat-and-offers")
    announce_pending()
    note = Notification.objects.get(kind="offer", user=bob)
    page.set_content(note.body_html or smtp.messages[-1].get_body(("html",)).get_content())
    assert "offers a trade" in page.inner_text("body")
    _shots(page, "offer-email")
