"""The email choices on the settings page in a real browser (headless Chromium): a player
chooses the daily digest at 09:00, reminders 24 h and 2 h ahead, quiet hours across
midnight, and mutes a game; the page says so, under the strict CSP (no violation)."""

from __future__ import annotations

from datetime import time
from typing import Any

from notifications import services as notifications
from tests.web.test_in_a_browser import _shot, _sign_in, page  # noqa: F401 (page: a fixture)
from tests.web.test_in_a_browser import pytestmark as browser_marks

pytestmark = browser_marks


def test_a_player_chooses_the_digest_quiet_hours_lead_times_and_a_mute(
    transactional_db: Any,
    live_server: Any,
    page: Any,  # noqa: F811 (the fixture imported above)
    make_game: Any,
    make_user: Any,
) -> None:
    ada, bob = make_user("ada", display_name="Ada"), make_user("bob", display_name="Bob")
    game = make_game(ada, bob)
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    base = live_server.url
    _sign_in(page, base, ada)
    page.goto(f"{base}/profile/")
    # The group of muted games is a column under its label (its fieldset's legend), as the
    # other fields (a rule for a single checkbox laid it out in a row, its games squeezed one
    # word a line)
    box = page.locator("#id_muted")
    field_label = box.locator("xpath=..").locator("legend")
    assert field_label.bounding_box()["y"] < box.bounding_box()["y"]
    page.check("#id_game_email_1")  # one daily digest
    page.select_option("#id_digest_hour", "9")
    page.fill("#id_remind_before", "24, 2")
    page.fill("#id_quiet_from", "22:00")
    page.fill("#id_quiet_until", "07:00")
    page.check(f"input[name=muted][value='{game.pk}']")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector(".message.success")
    assert "Your settings are saved." in page.inner_text(".messages")
    assert f"Muted: no email about these games. #{game.pk}" in page.inner_text("main")
    assert page.is_checked("#id_game_email_1")
    assert page.input_value("#id_remind_before") == "24, 2"
    _shot(page, "profile-email-choices")
    pref = notifications.preference(ada)
    assert (pref.digest, pref.digest_hour, pref.remind_before) == (True, 9, [24, 2])
    assert (pref.quiet_from, pref.quiet_until) == (time(22), time(7))
    assert [g.pk for g in notifications.muted_games(ada)] == [game.pk]
    assert not violations
