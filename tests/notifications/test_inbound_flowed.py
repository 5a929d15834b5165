"""Replies in RFC 3676's format=flowed (QA, H3): Thunderbird and Apple Mail wrap long lines
at 72 characters and end each wrapped piece with a space. The door reads the lines as the
player typed them: a wrapped message line is posted whole (its end is not read as a
command), and a command wrapped by a client that deletes its spaces (DelSp=yes) is
played."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import ChatMessage, Move
from tests.notifications.conftest import reply_to, text_part
from tests.notifications.test_inbound_hardening import _answer, _pipe

pytestmark = pytest.mark.django_db

PLAIN = b'Content-Type: text/plain; charset="utf-8"'


def _flowed(raw: bytes, params: str = "") -> bytes:
    assert PLAIN in raw
    return raw.replace(PLAIN, PLAIN + b"; format=flowed" + params.encode())


def test_a_wrapped_message_line_is_posted_whole(client: Any, turn: Any, smtp: Any) -> None:
    game, message, command = turn
    said = "good luck to you all, this will be a long game and I hope the dice are kind to me"
    wrapped = said.replace(" kind ", " kind \n")  # (the client's wrap: the space kept)
    _pipe(client, _flowed(reply_to(message, f"say: {wrapped}\n{command}")))
    assert Move.objects.get(game=game, source="email").text == command
    assert ChatMessage.objects.get(game=game).text == said
    answer = _answer(smtp)
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(answer)


def test_a_line_wrapped_with_delsp_loses_the_space_its_client_added(
    client: Any, turn: Any, smtp: Any
) -> None:
    game, message, command = turn
    wrapped = f"{command[:3]} \n{command[3:]}"  # DelSp=yes: a client may wrap anywhere
    _pipe(client, _flowed(reply_to(message, wrapped), "; delsp=yes"))
    assert Move.objects.get(game=game, source="email").text == command
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(_answer(smtp))


def test_without_format_flowed_a_trailing_space_joins_nothing(
    client: Any, turn: Any, smtp: Any
) -> None:
    game, message, command = turn
    _pipe(client, reply_to(message, f"{command} \nThanks"))
    assert Move.objects.get(game=game, source="email").text == command
    assert "Lines ignored (after your commands):\n    Thanks\n" in text_part(_answer(smtp))
