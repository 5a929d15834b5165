"""The game tools on a league game: each is in the game's log (who, why), told to the
players by email (a real SMTP server), and pausing stops the clock until the resume."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games import selectors
from games import services as games
from games.models import Game, Move
from games.services.errors import GameNotActive, NotAllowed
from leagues import mail, manage
from leagues import services as leagues
from leagues.models import Mail as LeagueMail
from leagues.models import Season
from notifications import leases
from tests.notifications.conftest import Inbox, smtp, text_part  # noqa: F401
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(season_with: Callable[..., Season], ada: User, bob: User, cy: User) -> Game:
    season = season_with(bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada)
    return Game.objects.get(season_game__season=season)


def _log(game: Game) -> list[dict[str, Any]]:
    return [m.events[0] for m in Move.objects.filter(game=game, command__isnull=True, seq__gt=0)]


def test_a_pause_stops_the_clock_and_the_resume_gives_the_time_back(
    game: Game, ada: User, bob: User
) -> None:
    assert game.deadline is not None
    left = game.deadline - timezone.now()
    manage.use_tool(game=game, by=ada, tool="pause", why="a player's flat flooded")
    game.refresh_from_db()
    assert game.deadline is None and game.paused_at is not None
    assert games.sweep(now=timezone.now() + timedelta(days=90)) == []
    with pytest.raises(GameNotActive, match="is paused"):
        games.submit_command(game=game, user=bob, text="roll")
    manage.use_tool(game=game, by=ada, tool="resume", why="dry again")
    game.refresh_from_db()
    assert game.deadline is not None
    assert abs((game.deadline - timezone.now()) - left) < timedelta(seconds=30)
    tools = _log(game)
    assert [e["tool"] for e in tools] == ["pause", "resume"]
    assert tools[0]["by_name"] == ada.name and tools[0]["why"] == "a player's flat flooded"


def test_extend_and_replace_are_logged_and_emailed(
    game: Game,
    ada: User,
    bob: User,
    cy: User,
    smtp: Inbox,  # noqa: F811
) -> None:
    before = game.deadline
    assert before is not None
    manage.use_tool(game=game, by=ada, tool="extend", why="holidays", hours=48)
    game.refresh_from_db()
    assert game.deadline is not None and game.deadline - before == timedelta(hours=48)
    seat = game.seats.get(user=bob)
    colour, order = seat.colour, seat.order
    manage.use_tool(game=game, by=ada, tool="replace", why="gone", seat=seat.order, bot="greedy")
    seat.refresh_from_db()
    assert seat.user is None and seat.bot == "greedy"
    assert (seat.colour, seat.order) == (colour, order)  # the same seat: its holdings stay
    assert mail.send_waiting() == 4  # two tools, two players each
    messages = smtp.wait_for(4)
    told = [text_part(m) for m in messages if m["To"] == cy.email]
    assert any(f"{ada.name} gave game #{game.pk} 48 more hours." in t for t in told)
    assert any("Why: gone" in t for t in told)


def test_a_player_is_refused_the_tools(game: Game, bob: User) -> None:
    with pytest.raises(NotAllowed):
        manage.use_tool(game=game, by=bob, tool="abort", why="I am losing")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and _log(game) == []


def test_a_league_email_outlives_an_smtp_outage_of_hours(
    game: Game,
    ada: User,
    cy: User,
    smtp: Inbox,  # noqa: F811
    settings: Any,
) -> None:
    """League email follows the site's one discipline (notifications.leases): tried with a
    backoff for some thirteen hours, where it used to be given up after five tries (half an
    hour) and never sent."""
    port = settings.EMAIL_PORT
    manage.use_tool(game=game, by=ada, tool="extend", why="holidays", hours=24)
    to_cy = LeagueMail.objects.get(to=cy.email)
    settings.EMAIL_PORT = 9  # the SMTP server is down: connections refused
    tries = 0
    moment = timezone.now()
    while tries < 8:
        assert mail.send_waiting(now=moment) == 0
        to_cy.refresh_from_db()
        tries += 1
        assert to_cy.sent_at is None and to_cy.due_at is not None, f"given up after {tries}"
        late = to_cy.due_at - moment - leases.retry_delay(tries)  # (the clock moved on)
        assert timedelta(0) <= late < timedelta(seconds=5)
        moment = to_cy.due_at
    assert to_cy.attempts == 8 and "Connection refused" in to_cy.error

    settings.EMAIL_PORT = port  # back up
    assert mail.send_waiting(now=moment) == 2  # (bob's too)
    [message] = [m for m in smtp.wait_for(2) if m["To"] == cy.email]
    assert f"{ada.name} gave game #{game.pk} 24 more hours." in text_part(message)
    to_cy.refresh_from_db()
    assert to_cy.sent_at is not None and to_cy.due_at is None


def test_the_tools_are_told_in_the_log_in_the_readers_language(
    game: Game, ada: User, bob: User, client: Any
) -> None:
    """Each tool's entry in the log is a sentence (it was the raw event, a Python dict),
    under the name of who used it (a replacement was shown under the new player's)."""
    manage.use_tool(game=game, by=ada, tool="extend", why="vacances", hours=48)
    manage.use_tool(game=game, by=ada, tool="pause", why="inondation")
    manage.use_tool(game=game, by=ada, tool="resume", why="sec")
    seat = game.seats.get(user=bob).order
    manage.use_tool(game=game, by=ada, tool="replace", why="parti", seat=seat, bot="greedy")
    bob.language = "fr"
    bob.save(update_fields=["language"])
    client.force_login(bob)

    moves = client.get(f"/api/v1/games/{game.pk}/moves/?since=0").json()["moves"]
    tools = [m for m in moves if m["events"][0]["type"] == "tool"]
    said = [s for m in tools for s in m["described"]]
    assert said == [
        f"{ada.name} a accordé 48 heures de plus à la partie. Pourquoi\u00a0: vacances",
        f"{ada.name} a mis la partie en pause\u00a0: aucune échéance ne court jusqu'à sa "
        "reprise. Pourquoi\u00a0: inondation",
        f"{ada.name} a repris la partie\u00a0: la pendule repart avec le temps qui lui "
        "restait. Pourquoi\u00a0: sec",
        f"{ada.name} a remplacé {bob.name} par bot glouton\u00a0; la place garde tout ce "
        "qu'elle possède. Pourquoi\u00a0: parti",
    ]
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f"{ada.name} a remplacé {bob.name}" in page
    assert "'type': 'tool'" not in page and "{'" not in page


def test_one_more_hour_is_singular_in_the_log(game: Game, ada: User) -> None:
    """ "gave the game 1 more hours" (found by review)."""
    manage.use_tool(game=game, by=ada, tool="extend", why="a short delay", hours=1)
    described = [s for m in selectors.moves_since(game=game, since=0) for s in m["described"]]
    assert f"{ada.name} gave the game 1 more hour. Why: a short delay" in described
