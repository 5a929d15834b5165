"""A command written only in the Subject (QA, low): the Subject is not read, and the answer
says so, instead of showing the commands received as "(none)" with no reason why."""

from __future__ import annotations

import email
import email.policy
from typing import Any

import pytest

from games.models import Move
from tests.notifications.conftest import deliver, reply_to, text_part
from tests.notifications.test_inbound_hardening import _answer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("subject", ["{}", "Re: {}", "RE: [Lords #1] {}"])
def test_a_command_in_the_subject_only_is_refused_with_why(
    turn: Any, smtp: Any, subject: str
) -> None:
    game, message, command = turn
    reply = email.message_from_bytes(reply_to(message, ""), policy=email.policy.default)
    reply.replace_header("Subject", subject.format(command))
    printed = deliver(reply.as_bytes())
    assert printed.startswith("refused"), printed
    assert not Move.objects.filter(game=game, source="email").exists()
    text = " ".join(text_part(_answer(smtp)).split())
    assert f"the Subject ('{command}') is not read" in text
