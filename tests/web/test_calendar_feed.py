"""The calendar feed: a secret address made on the profile page, an iCal file a calendar
app reads (parsed here with icalendar) with one event per game waiting on the player at
its deadline, and a new address that voids the old one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from icalendar import Calendar

from tests.platform.helpers import seat_to_act

pytestmark = pytest.mark.django_db


def _address(client: Any) -> str:
    page = client.get("/profile/").content.decode()
    match = re.search(r'id="calendar-url">(' + re.escape(settings.SITE_URL) + r"[^<]+\.ics)<", page)
    assert match, "the profile page shows the address"
    return match.group(1).removeprefix(settings.SITE_URL)


def test_the_feed_lists_the_deadlines_of_the_games_waiting_on_the_player(
    client: Any, make_game: Any, ada: Any, bob: Any, cy: Any
) -> None:
    waiting = make_game(ada, bob)
    if seat_to_act(waiting).user != ada:  # the first player is drawn: make it ada's turn
        waiting = make_game(bob, ada)
    assert seat_to_act(waiting).user == ada
    elsewhere = make_game(bob, cy)
    client.force_login(ada)
    response = client.post("/games/calendar/new/", follow=True)
    assert "Your calendar has a new address" in response.content.decode()
    address = _address(client)
    client.logout()  # a calendar app has no session: the secret address is enough

    feed = client.get(address)

    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(feed.content).walk("VEVENT")
    waiting.refresh_from_db()
    assert [str(e["SUMMARY"]) for e in events] == [f"Deadline in Vegas #{waiting.pk}"]
    assert events[0].decoded("DTSTART") == waiting.deadline.replace(microsecond=0)  # (iCal: s)
    assert f"/games/{waiting.pk}/" in str(events[0]["URL"])
    assert f"#{elsewhere.pk}" not in feed.content.decode()


def test_a_new_address_voids_the_old_one_and_unknown_ones_are_not_found(
    client: Any, ada: Any
) -> None:
    client.force_login(ada)
    client.post("/games/calendar/new/")
    old = _address(client)
    client.post("/games/calendar/new/")
    new = _address(client)
    assert new != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200
    assert client.get("/games/calendar/guessed.ics").status_code == 404


def test_only_a_signed_in_player_makes_an_address(client: Any) -> None:
    response = client.post("/games/calendar/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_feed_is_in_the_players_language_not_the_calendar_apps(
    client: Any, make_game: Any, make_user: Any, bob: Any
) -> None:
    """QA: a calendar app sends no Accept-Language, so a French player's feed was in
    English: it is in the language of the player the feed is for."""
    elise = make_user("elise", language="fr")
    games = (make_game(elise, bob) for _ in range(10))  # (each seed its own first player)
    game = next(g for g in games if seat_to_act(g).user == elise)
    client.force_login(elise)
    client.post("/games/calendar/new/")
    address = _address(client)
    client.logout()

    calendar = Calendar.from_ical(client.get(address).content)

    assert str(calendar["X-WR-CALNAME"]) == "Lords\u00a0: tes échéances"
    [event] = calendar.walk("VEVENT")
    assert str(event["SUMMARY"]) == f"Échéance dans Vegas #{game.pk}"
