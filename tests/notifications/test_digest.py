"""The daily digest through a real SMTP server, and a reply to it that plays in several
games at once: each game judged on its own, one answer with a verdict per game."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine

from games.models import Game, Move, Seat
from notifications import services
from notifications.addresses import parse_digest_address
from notifications.digest import run_digests
from notifications.models import Notification
from tests.notifications.conftest import alternatives, deliver, html_part, reply_to, text_part

pytestmark = pytest.mark.django_db
MORNING = datetime(2026, 11, 23, 7, tzinfo=UTC)  # 08:00 in Paris


def _digest_player(make_user, games: int, make_game):
    ada = make_user("ada", time_zone="Europe/Paris")
    made = [make_game(ada, bots=1) for _ in range(games)]
    for game in made:
        assert Seat.objects.get(game=game, user=ada).to_act
    services.set_preferences(user=ada, turn_emails=True, reminders=True, digest=True, digest_hour=8)
    return ada, made


def _digest(smtp, make_user, make_game, games: int):
    with time_machine.travel(MORNING.replace(hour=6), tick=False) as clock:
        ada, made = _digest_player(make_user, games, make_game)
        clock.move_to(MORNING)
        assert run_digests() == 1
    [digest] = [m for m in smtp.wait_for(1) if "digest" in m["Subject"]]
    return ada, made, digest


def _offered(text: str, game: Game) -> list[str]:
    """The commands the digest offers for a game (its "#12 place 2|4|5" line, written
    out: "#12 place 2", "#12 place 4"...)."""
    lines = re.findall(rf"^  #{game.pk} (\S+) (.+)$", text, flags=re.MULTILINE)
    return [f"#{game.pk} {verb} {n}" for verb, ns in lines for n in alternatives(ns)]


def test_the_digest_lists_every_game_waiting_with_its_board_and_commands(
    make_user, make_game, smtp
):
    ada, made, digest = _digest(smtp, make_user, make_game, games=2)
    assert digest["To"] == ada.email
    assert digest["Subject"] == "[Lords] Your digest: 2 games wait for you"
    assert parse_digest_address(digest["Reply-To"]) == ada.pk
    text, html = text_part(digest), html_part(digest)
    for game in made:
        assert f"== #{game.pk} Vegas" in text
        assert _offered(text, game)  # its legal commands, numbered for the reply
        assert f"http://localhost:8000/games/{game.pk}/" in text
        assert f"<h2>#{game.pk} Vegas" in html
        assert game.seed not in text + html  # hidden information stays hidden
    assert "Reply by" in text and "(Europe/Paris)" in text
    note = Notification.objects.get(kind="digest", user=ada)
    assert note.game is None and note.status == "sent" and note.key == "d2026-11-23"
    assert note.message_id == digest["Message-ID"]


def test_a_reply_plays_in_three_games_and_refuses_in_a_fourth(make_user, make_game, smtp):
    ada, made, digest = _digest(smtp, make_user, make_game, games=4)
    text = text_part(digest)
    played = made[:3]
    lines = [_offered(text, game)[0] for game in played]
    refused = made[3]
    lines.append(f"#{refused.pk} build Z99")  # not a Vegas command
    versions = {g.pk: Game.objects.get(pk=g.pk).version for g in made}
    reply = reply_to(digest, "\n".join(lines) + "\n")

    printed = deliver(reply)

    assert printed.startswith("played")
    for game, line in zip(played, lines, strict=False):
        move = Move.objects.filter(game=game, source="email").get()
        assert move.text == line.split(" ", 1)[1]
        assert Game.objects.get(pk=game.pk).version > versions[game.pk]
    assert Game.objects.get(pk=refused.pk).version == versions[refused.pk]  # nothing changed
    assert not Move.objects.filter(game=refused, source="email").exists()
    [answer] = [m for m in smtp.wait_for(2) if "digest reply" in m["Subject"]]
    assert answer["To"] == ada.email
    assert answer["Auto-Submitted"] == "auto-replied"
    verdicts = ", ".join([f"#{g.pk} played" for g in played] + [f"#{refused.pk} not played"])
    assert answer["Subject"] == f"[Lords] Your digest reply: {verdicts}"
    body = text_part(answer)
    for game, line in zip(played, lines, strict=False):
        assert f"#{game.pk}: played\n    {line.split(' ', 1)[1]}" in body
    assert f"#{refused.pk}: not played (nothing was changed in this game)" in body
    assert "build Z99" in body
    # The same reply again (the MTA redelivers it): nothing plays twice, no second answer.
    assert deliver(reply).startswith("duplicate")
    assert Move.objects.filter(source="email").count() == 3
    assert len([m for m in smtp.wait_for(3, timeout=1) if "digest reply" in m["Subject"]]) == 1


def test_a_reply_from_another_address_is_ignored(make_user, make_game, smtp):
    _ada, made, digest = _digest(smtp, make_user, make_game, games=1)
    line = _offered(text_part(digest), made[0])[0]
    printed = deliver(reply_to(digest, line, sender="Mallory <mallory@example.org>"))
    assert printed.startswith("ignored")
    assert not Move.objects.filter(source="email").exists()


def test_a_game_the_player_is_not_in_is_refused_by_name(make_user, make_game, bob, smtp):
    _ada, _made, digest = _digest(smtp, make_user, make_game, games=1)
    other = make_game(bob, bots=1)
    printed = deliver(reply_to(digest, f"#{other.pk} place 1\n"))
    assert printed.startswith("refused")
    [answer] = [m for m in smtp.wait_for(2) if "digest reply" in m["Subject"]]
    assert f"you do not play in game #{other.pk}" in text_part(answer)
    assert not Move.objects.filter(game=other, source="email").exists()
