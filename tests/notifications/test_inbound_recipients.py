"""Which game a reply plays in (QA, H4): the address the mail server or the provider
delivered this copy to, when it says (Delivered-To, X-Original-To, Postmark's
OriginalRecipient), whatever the order of To and Cc; else the first of our addresses in To
and Cc made for the sender. A message to two of a player's games is answered in each, and
one also sent to a friend's turn address is not dropped for it."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest

from games.engines.registry import get_engine
from games.models import Game, Move
from notifications.addresses import reply_address
from tests.notifications.conftest import deliver, text_part
from tests.notifications.test_inbound_doors import SECRET, URL, _auth, postmark_payload

pytestmark = pytest.mark.django_db


def _first(game: Game) -> tuple[Any, str, str]:
    """The player the game waits on, their reply address in it, a command they may play."""
    assert game.state is not None
    engine = get_engine(game.game_type)
    order = engine.to_act(game.state)[0]
    seat = game.seats.select_related("user").get(order=order)
    command = engine.format(engine.legal_commands(game.state, order)[0])
    return seat.user, reply_address(game.pk, seat.pk), command


def _message(sender: str, to: list[str], body: str, **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ", ".join(to)
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = "<two-games@mail.example.org>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body + "\n")
    return message.as_bytes()


@pytest.fixture
def two_games(make_game: Any, ada: Any, bob: Any, smtp: Any, settings: Any) -> Any:
    """Two Vegas games of Ada and Bob, and, for the one who plays first in the second, their
    addresses in both (the second's first) and a command of the second."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    one, two = make_game(ada, bob), make_game(ada, bob)
    player, address_two, command = _first(two)
    address_one = reply_address(one.pk, one.seats.get(user=player).pk)
    return one, two, player, [address_one, address_two], command


def _answers(smtp: Any, count: int) -> list[EmailMessage]:
    messages = smtp.wait_for(count)
    assert len(smtp.wait_for(count + 1, timeout=0.3)) == count
    return messages


def test_a_copy_is_played_in_the_game_it_was_delivered_for(two_games: Any, smtp: Any) -> None:
    one, two, player, addresses, command = two_games
    to_both = _message(player.email, addresses, command, Delivered_To=addresses[1])
    deliver(to_both)
    assert Move.objects.get(source="email").game == two
    [answer] = _answers(smtp, 1)
    assert f"Played in Vegas #{two.pk}: {command}" in text_part(answer)
    # The mail server's other copy, for the first game: judged there, not a duplicate.
    deliver(_message(player.email, addresses, command, X_Original_To=addresses[0]))
    assert f"#{one.pk}" in _answers(smtp, 2)[1]["Subject"]


def test_postmarks_original_recipient_chooses_the_game(
    client: Any, two_games: Any, smtp: Any
) -> None:
    _, two, player, addresses, command = two_games
    payload = postmark_payload(_message(player.email, addresses, command))
    payload["OriginalRecipient"] = addresses[1]
    response = client.post(
        URL, payload, content_type="application/json", HTTP_AUTHORIZATION=_auth(SECRET)
    )
    assert response.status_code == 200
    assert Move.objects.get(source="email").game == two
    [answer] = _answers(smtp, 1)
    assert f"Played in Vegas #{two.pk}: {command}" in text_part(answer)


def test_a_friends_address_before_the_players_own_is_passed_over(two_games: Any, smtp: Any) -> None:
    _, two, player, addresses, command = two_games
    friend = two.seats.exclude(user=player).get()
    to = [reply_address(two.pk, friend.pk), addresses[1]]
    deliver(_message(player.email, to, command))
    assert Move.objects.get(source="email").game == two
    [answer] = _answers(smtp, 1)
    assert answer["To"] == player.email
    assert f"Played in Vegas #{two.pk}: {command}" in text_part(answer)
