"""The email door, end to end: a real turn email arrives at a real SMTP server, the player
replies to it as a mail client would, ``manage.py receive_email`` reads the reply, the move
is in the log, and the confirmation arrives, threaded."""

from __future__ import annotations

import pytest

from games.models import Game, Move, Seat
from notifications.addresses import parse_reply_address
from notifications.models import Notification
from notifications.services import notify_game
from tests.notifications.conftest import commands_offered, deliver, reply_to, text_part

pytestmark = pytest.mark.django_db


def _turn_email(game: Game, smtp, count: int = 1):
    notify_game(game_id=game.pk)
    return smtp.wait_for(count)[-1]


def test_a_reply_to_the_turn_email_plays_the_move_and_is_confirmed(make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    turn = _turn_email(game, smtp)
    seat = Seat.objects.get(game=game, user__email=turn["To"])
    command = commands_offered(turn)[0]
    reply = reply_to(turn, f"{command}\n")

    printed = deliver(reply)

    assert printed.startswith("played:")
    move = Move.objects.get(game=game, seq=1)
    assert (move.seat_id, move.text, move.source) == (seat.pk, command, "email")
    game.refresh_from_db()
    assert game.version >= 1
    # The turn email and the confirmation (the next turn email goes out after the commit,
    # which a test inside a transaction never reaches).
    messages = smtp.wait_for(2)
    [answer] = [m for m in messages if "Played" in m["Subject"]]
    assert answer["To"] == turn["To"]
    assert answer["Subject"].strip() == f"[Lords #{game.pk}] Played: {command}"
    incoming_id = next(v for k, v in _headers(reply) if k.lower() == "message-id")
    assert answer["In-Reply-To"] == incoming_id
    assert answer["References"].split() == [f"<game-{game.pk}@localhost>", incoming_id]
    assert answer["Auto-Submitted"] == "auto-replied"
    assert parse_reply_address(answer["Reply-To"]) == (game.pk, seat.pk)
    text = text_part(answer)
    assert f"Played in Vegas #{game.pk}: {command}" in text
    assert "Now the game waits on" in text and "you will get an email" in text
    assert "Nothing was changed" not in text
    note = Notification.objects.get(kind=Notification.Kind.ANSWER, game=game)
    assert note.status == Notification.Status.SENT
    assert note.message_id == answer["Message-ID"]


def test_the_same_message_delivered_twice_plays_once_and_is_answered_once(
    make_game, ada, bob, smtp
):
    game = make_game(ada, bob)
    turn = _turn_email(game, smtp)
    reply = reply_to(turn, commands_offered(turn)[0])

    assert deliver(reply).startswith("played:")
    assert deliver(reply).startswith("duplicate:")

    assert Move.objects.filter(game=game, source="email").count() == 1
    smtp.wait_for(2)
    assert len([m for m in smtp.messages if "Played" in m["Subject"]]) == 1


def test_a_redelivery_after_a_lost_answer_replays_the_move_and_answers(make_game, ada, bob, smtp):
    from notifications import inbound

    game = make_game(ada, bob)
    turn = _turn_email(game, smtp)
    raw = reply_to(turn, commands_offered(turn)[0])
    played = inbound.receive(raw)
    assert played.answered
    Notification.objects.filter(kind=Notification.Kind.ANSWER).update(
        status=Notification.Status.FAILED
    )

    again = inbound.receive(raw)

    assert again.status == "played" and again.answered
    assert Move.objects.filter(game=game, source="email").count() == 1
    answers = [m for m in smtp.wait_for(3) if "Played" in m["Subject"]]
    assert len(answers) == 2
    # The lost answer goes out again as it was (stored before sending: same Message-ID).
    assert answers[1]["Message-ID"] == answers[0]["Message-ID"]
    assert text_part(answers[1]) == text_part(answers[0])


def test_a_reply_to_an_older_email_applies_if_it_is_legal_now(make_game, ada, bob, smtp):
    """No expected version: the commands are judged against the game as it is now."""
    game = make_game(ada, bob)
    first = _turn_email(game, smtp)
    seat = Seat.objects.get(game=game, user__email=first["To"])
    from tests.notifications.conftest import play

    while True:  # play on until the same seat is asked again
        play(game, 1)
        if game.status != Game.Status.ACTIVE:
            pytest.skip("the game ended first")
        if Seat.objects.get(pk=seat.pk).to_act:
            break
    from games.engines.registry import get_engine

    engine = get_engine(game.game_type)
    legal = engine.format(engine.legal_commands(game.state, seat.order)[0])

    assert deliver(reply_to(first, legal)).startswith("played:")
    assert Move.objects.filter(game=game, source="email", seat=seat).count() == 1


def test_a_played_answer_carries_the_board_when_the_turn_goes_on(make_game, ada, bob, smtp):
    """Lords of Vegas: after a `build` by email the player still acts in the same turn and
    gets no new 'your turn' email, so the answer shows the board and their commands."""
    game = make_game(ada, bob, game_type="lords-of-vegas")
    turn = _turn_email(game, smtp)
    build = next(c for c in commands_offered(turn) if c.startswith("build "))

    assert deliver(reply_to(turn, build)).startswith("played:")

    [answer] = [m for m in smtp.wait_for(2) if "Played" in m["Subject"]]
    text = text_part(answer)
    assert "It is still your turn: the board and your commands follow." in text
    assert "Reply by " in text
    assert "Your commands:\n" in text and "  end\n" in text
    assert "To play on, reply to this email" in text
    assert notify_game(game_id=game.pk) == 0  # no new 'your turn'


def _headers(raw: bytes) -> list[tuple[str, str]]:
    import email
    import email.policy

    return list(email.message_from_bytes(raw, policy=email.policy.default).items())
