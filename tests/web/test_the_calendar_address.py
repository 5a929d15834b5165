"""The calendar address as the profile shows it, and the feed's language as its HTTP
answer says it.

Found by play-testing: the address box showed "http://127.0.0.1:8102/games/" and hid the
rest (its class ``wide`` had no rule); a French player's feed answered
``Content-Language: en``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def _box(client: Any) -> str:
    page = client.get("/profile/").content.decode()
    found = re.search(r'<textarea[^>]*id="calendar-url"[^>]*>([^<]*)</textarea>', page)
    assert found, page
    return found.group(0)


def test_the_profile_shows_the_whole_address_in_a_box_as_wide_as_its_panel(
    client: Any, ada: Any
) -> None:
    client.force_login(ada)
    client.post("/games/calendar/new/")
    box = _box(client)
    assert "readonly" in box and 'class="wide"' in box
    address = re.sub(r"<[^>]+>", "", box)
    assert address.startswith(f"{settings.SITE_URL}/games/calendar/") and address.endswith(".ics")
    stylesheet = finders.find("games/lords.css")
    assert stylesheet is not None
    with open(stylesheet, encoding="utf-8") as css:
        rules = css.read()
    rule = re.search(r"textarea\.wide \{([^}]*)\}", rules)
    assert rule, "a rule for the box"
    assert "width: 100%" in rule.group(1) and "overflow-wrap: anywhere" in rule.group(1)


@pytest.mark.parametrize(("language", "asked"), [("fr", "en"), ("it", "fr"), ("en", "it")])
def test_the_feed_says_the_language_it_is_in(
    client: Any, make_user: Any, language: str, asked: str
) -> None:
    """A calendar app may ask for another language (or none): the feed is in its player's
    language, and its answer says that one."""
    player = make_user(f"player-{language}", language=language)
    client.force_login(player)
    client.post("/games/calendar/new/")
    address = re.sub(r"<[^>]+>", "", _box(client)).removeprefix(settings.SITE_URL)
    client.logout()
    feed = client.get(address, HTTP_ACCEPT_LANGUAGE=asked)
    assert feed.status_code == 200
    assert feed["Content-Language"] == language
