"""Every seat told: "the game started" to every person (the first to act in one email,
their turn), and resigning by email reply ("resign game <n>" only; twice is refused)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Move, Seat
from tests.notifications.conftest import deliver, reply_to, text_part

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_seat_is_told_the_game_started_and_the_first_once(ada, bob, cy, smtp):
    game = services.create_game(creator=ada, game_type="vegas", seats=4)
    services.join_game(game=game, user=bob)
    services.join_game(game=game, user=cy)
    services.add_bot(game=game, by=ada, bot="greedy")
    joined = len(smtp.wait_for(3))  # "bob joined" to ada; "cy joined" to ada and bob
    services.start_game(game=game, by=ada)
    mails = smtp.wait_for(joined + 3)[joined:]
    assert sorted(m["To"] for m in mails) == sorted([ada.email, bob.email, cy.email])
    for mail in mails:
        body = text_part(mail)
        assert "has started" in mail["Subject"]
        assert "Seat order:" in body and "greedy bot (bot)" in body
    first = Seat.objects.get(game=game, to_act=True)
    (theirs,) = [m for m in mails if m["To"] == first.user.email]  # type: ignore[union-attr]
    assert "your turn" in theirs["Subject"] and "You move first." in text_part(theirs)
    assert "Your commands:" in text_part(theirs)


def test_resigning_by_email_needs_the_game_number_and_is_refused_twice(
    make_game, ada, bob, cy, smtp
):
    game = make_game(ada, bob, cy)
    sent = smtp.wait_for(6)  # three "joined", three "started"
    player = Seat.objects.get(game=game, to_act=True).user
    turn = smtp.to(player.email)[-1]  # type: ignore[union-attr]
    version = Game.objects.get(pk=game.pk).version
    deliver(reply_to(turn, "resign", sender=player.email))  # type: ignore[union-attr]
    refused = smtp.wait_for(len(sent) + 1)[-1]
    assert f"reply with this line on top: resign game {game.pk}" in text_part(refused)
    assert Game.objects.get(pk=game.pk).version == version
    deliver(reply_to(turn, f"resign game {game.pk}", sender=player.email))  # type: ignore[union-attr]
    done = smtp.wait_for(len(sent) + 2)
    answer = next(m for m in done if "You resigned from" in m["Subject"])
    assert "you rank last" in text_part(answer)
    assert Seat.objects.get(game=game, user=player).resigned
    assert Move.objects.get(game=game, text="resign").source == "email"  # (it read "system")
    count = len(smtp.messages)
    deliver(reply_to(turn, f"resign game {game.pk}", sender=player.email))  # type: ignore[union-attr]
    again = smtp.wait_for(count + 1)[-1]
    assert f"you already resigned from game #{game.pk}" in text_part(again)
