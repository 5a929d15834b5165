"""The email door refuses precisely and writes nothing: the player gets the service's
message, their commands as received and "nothing was changed"; strangers, forged senders
and automatic mail get no answer at all."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Move, Seat
from notifications.addresses import reply_address
from notifications.models import Notification
from notifications.services import notify_game
from tests.notifications.conftest import commands_offered, deliver, play, reply_to, text_part

pytestmark = pytest.mark.django_db


@pytest.fixture
def turn(make_game, ada, bob, smtp):
    """A started game and the turn email its first player received."""
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    return game, message


def _nothing_written(game: Game, version: int = 0) -> None:
    game.refresh_from_db()
    assert game.version == version
    assert not Move.objects.filter(game=game, source="email").exists()


def _answer(smtp, count: int = 2):
    messages = smtp.wait_for(count)
    assert len(messages) == count
    answer = messages[-1]
    assert answer["Subject"].strip().endswith("Not played: nothing was changed")
    return text_part(answer)


def _no_answer(smtp, count: int = 1) -> None:
    assert len(smtp.wait_for(count + 1, timeout=0.5)) == count
    assert not Notification.objects.filter(kind=Notification.Kind.ANSWER).exists()


def test_it_refuses_a_malformed_command_and_says_why(turn, smtp):
    game, message = turn
    assert deliver(reply_to(message, "fly to the moon")).startswith("refused:")
    _nothing_written(game)
    text = _answer(smtp)
    assert "was not played:\n\n    'fly to the moon'" in text
    assert "Nothing was changed." in text
    assert "Your commands, as received:\n    fly to the moon\n" in text


def test_it_refuses_an_illegal_command_and_says_why(turn, smtp):
    game, message = turn
    offered = {int(c.split()[1]) for c in commands_offered(message)}
    missing = sorted(set(range(1, 7)) - offered)
    if not missing:
        pytest.skip("every number was rolled")
    deliver(reply_to(message, f"place {missing[0]}"))
    _nothing_written(game)
    text = _answer(smtp)
    assert re.search(rf"place {missing[0]}: you rolled [0-9 ]+; there is no {missing[0]}", text)
    assert f"Your commands, as received:\n    place {missing[0]}\n" in text


def test_a_bad_command_among_several_refuses_them_all(turn, smtp):
    game, message = turn
    first = commands_offered(message)[0]
    deliver(reply_to(message, f"{first}; dance"))
    _nothing_written(game)
    text = _answer(smtp)
    assert "command 2 of 2: 'dance'" in text
    assert f"    {first}; dance\n" in text


def test_it_refuses_a_move_out_of_turn(turn, smtp):
    game, message = turn
    command = commands_offered(message)[0]
    assert deliver(reply_to(message, command)).startswith("played:")
    version = Game.objects.get(pk=game.pk).version
    assert deliver(reply_to(message, command)).startswith("refused:")  # a new message
    _nothing_written_since(game, version)
    text = _answer(smtp, 3)
    assert re.search(r"it is \w+'s turn \(bob\), not yours", text), text


def _nothing_written_since(game: Game, version: int) -> None:
    game.refresh_from_db()
    assert game.version == version


def test_it_refuses_a_move_in_a_finished_game(turn, smtp):
    game, message = turn
    play(game, None)
    assert game.status == Game.Status.FINISHED
    version = game.version
    deliver(reply_to(message, "place 3"))
    _nothing_written_since(game, version)
    text = _answer(smtp)
    assert f"game #{game.pk} is finished: no more moves" in text


def test_an_empty_reply_gets_a_clear_answer(turn, smtp):
    game, message = turn
    deliver(reply_to(message, "\n   \n"))
    _nothing_written(game)
    text = _answer(smtp)
    assert "your reply holds no command" in text
    assert "Your commands, as received:\n    (none)\n" in text


def test_a_tampered_address_gets_no_answer(turn, smtp):
    game, message = turn
    address = str(message["Reply-To"])
    mac = address[address.index("k") + 1]
    tampered = address.replace(f"k{mac}", f"k{'0' if mac != '0' else '1'}", 1)
    assert deliver(reply_to(message, "place 3", to=tampered)).startswith("ignored:")
    _nothing_written(game)
    _no_answer(smtp)


def test_an_unknown_address_gets_no_answer(turn, smtp):
    game, message = turn
    printed = deliver(reply_to(message, "place 3", to="someone@localhost"))
    assert printed.startswith("ignored: no valid reply address")
    _nothing_written(game)
    _no_answer(smtp)


def test_a_wrong_sender_gets_no_answer(turn, cy, smtp):
    game, message = turn
    printed = deliver(reply_to(message, "place 3", sender=f"Cy <{cy.email}>"))
    assert printed.startswith("ignored: sender is not the seat's player")
    _nothing_written(game)
    _no_answer(smtp)


def test_the_other_players_address_does_not_take_a_senders_word(turn, bob, smtp):
    """Bob signs with Ada's seat address: refused, even though Bob is a player."""
    game, message = turn
    seat = Seat.objects.get(game=game, user__email=message["To"])
    other = Seat.objects.exclude(pk=seat.pk).get(game=game)
    to = reply_address(game.pk, seat.pk)
    assert other.user is not None
    printed = deliver(reply_to(message, "place 3", sender=other.user.email, to=to))
    assert printed.startswith("ignored:")
    _nothing_written(game)
    _no_answer(smtp)


@pytest.mark.parametrize(
    "headers, sender",
    [
        ({"Auto-Submitted": "auto-replied"}, None),
        ({"Auto-Submitted": "auto-generated; owner-email=x@example.org"}, None),
        ({"Precedence": "bulk"}, None),
        ({"Precedence": "auto_reply"}, None),
        ({"X-Autoreply": "yes"}, None),
        ({"X-Autorespond": "vacation"}, None),
        ({}, "MAILER-DAEMON@mail.example.org"),
        ({}, ""),
    ],
)
def test_automatic_mail_is_ignored_without_an_answer(turn, smtp, headers, sender):
    game, message = turn
    raw = reply_to(message, "place 3", headers=headers, sender=sender)
    assert deliver(raw).startswith("ignored:")
    _nothing_written(game)
    _no_answer(smtp)


def test_auto_submitted_no_is_a_person(turn, smtp):
    _, message = turn
    command = commands_offered(message)[0]
    raw = reply_to(message, command, headers={"Auto-Submitted": "no"})
    assert deliver(raw).startswith("played:")


def test_a_refused_message_whose_answer_failed_is_not_judged_again_on_redelivery(
    turn, smtp, settings
):
    """Bob replies `place N` out of turn; the refusal cannot be sent, so the MTA delivers
    the message again later, when N is in Bob's roll: the first verdict stands (the same
    refusal is sent), the move is never applied."""
    from games.engines.registry import get_engine
    from notifications import inbound

    game, message = turn
    engine = get_engine(game.game_type)
    first = Seat.objects.get(game=game, user__email=message["To"])
    bob = Seat.objects.select_related("user").exclude(pk=first.pk).get(game=game)
    assert bob.user is not None and game.state is not None
    # Bob's next roll (the dice are derived from the seed and the log position): what the
    # first player's move will give him.
    after, _ = engine.apply(
        game.state, first.order, engine.legal_commands(game.state, first.order)[0]
    )
    number = after["roll"]["own"][0] if after["roll"]["own"] else after["roll"]["white"][0]
    raw = reply_to(
        message,
        f"place {number}",
        sender=bob.user.email,
        to=reply_address(game.pk, bob.pk),
    )
    port = settings.EMAIL_PORT
    settings.EMAIL_PORT = 9  # nothing listens there: the refusal cannot be sent
    with pytest.raises(inbound.AnswerNotSent):
        inbound.receive(raw)
    settings.EMAIL_PORT = port
    note = Notification.objects.get(kind=Notification.Kind.ANSWER)
    assert note.status == Notification.Status.FAILED
    assert note.verdict is not None and note.verdict["status"] == "refused"

    play(game, 1)  # the game moves on: now it is Bob's turn, and he rolled that number
    version = game.version
    assert Seat.objects.get(pk=bob.pk).to_act
    assert f"place {number}" in [
        engine.format(c) for c in engine.legal_commands(game.state, bob.order)
    ]

    again = inbound.receive(raw)  # the MTA's redelivery

    assert (again.status, again.answered) == ("refused", True)
    _nothing_written_since(game, version)
    assert not Move.objects.filter(game=game, source="email").exists()
    text = _answer(smtp, 2)
    assert re.search(r"it is \w+'s turn \(\w+\), not yours", text), text
    assert f"Your commands, as received:\n    place {number}\n" in text
    assert inbound.receive(raw).status == "duplicate"
