"""The profile's quiet hours say what they hold: emails. Webhooks go at once (they are for
machines), so "Nothing is sent in your quiet hours" promised what the server does not do
(found by play-testing)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def test_the_quiet_hours_are_said_to_hold_the_emails(client: Any, ada: Any) -> None:
    client.force_login(ada)
    text = page_text(client.get("/profile/").content.decode())
    assert "No email is sent in your quiet hours: it waits for their end." in text
    assert "Nothing is sent" not in text


@pytest.mark.parametrize(
    ("language", "everything"),
    [
        ("fr", "Rien n'est envoyé pendant tes heures calmes"),
        ("it", "Nelle tue ore di silenzio non viene inviato nulla"),
    ],
)
def test_nor_in_french_or_italian_is_everything_said_to_wait(
    client: Any, make_user: Any, language: str, everything: str
) -> None:
    player = make_user(f"quiet-{language}", language=language)
    client.force_login(player)
    assert everything not in page_text(client.get("/profile/").content.decode())
