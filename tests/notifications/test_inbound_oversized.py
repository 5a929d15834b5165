"""A huge reply gets a small answer (QA, M5): the answer quotes back at most 20 of the
lines it ignored, and "...and N more", each line cut short; the verdict stored for a resend
is as small."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import ChatMessage, Move
from games.services import talk
from notifications.models import Notification
from tests.notifications.conftest import deliver, reply_to, text_part
from tests.notifications.test_inbound_hardening import _answer

pytestmark = pytest.mark.django_db


def test_only_twenty_ignored_lines_are_quoted_back(turn: Any, smtp: Any) -> None:
    _, message, command = turn
    thanks = [f"Thanks {n}" for n in range(1, 26)]
    printed = deliver(reply_to(message, "\n".join([command, *thanks])))
    assert printed.startswith("played"), printed
    text = text_part(_answer(smtp))
    assert "    Thanks 20\n" in text and "Thanks 21" not in text
    assert "    …and 5 more lines\n" in text


def test_a_huge_line_is_cut_in_the_answer_and_the_verdict(turn: Any, smtp: Any) -> None:
    game, message, _ = turn
    deliver(reply_to(message, "fly " + "x" * 500_000))
    assert not Move.objects.filter(game=game, source="email").exists()
    answer = _answer(smtp)
    assert "Not played" in answer["Subject"]
    assert len(answer.as_bytes()) < 20_000
    assert "    fly xxx" in text_part(answer)
    [row] = Notification.objects.filter(kind=Notification.Kind.ANSWER)
    assert len(json.dumps(row.verdict)) < 5_000


def test_a_reply_of_many_long_messages_gets_a_small_answer(turn: Any, smtp: Any) -> None:
    """Found by the security test: 3,000 lines of ``say:`` and 5,000 letters got a 31 MB
    answer quoting every refused line whole, after trying to post each. A reply posts at
    most as many messages as the table's limit allows in a minute; the rest are counted,
    not tried."""
    game, message, _ = turn
    lines = [f"say: {n} " + "A" * 5000 for n in range(3000)]
    printed = deliver(reply_to(message, "\n".join(lines)))
    assert printed.startswith(("said", "refused")), printed
    answer = _answer(smtp)
    assert len(answer.as_bytes()) < 60_000
    text = text_part(answer)
    assert "2990 more messages" in text.replace("\u202f", "").replace(",", "")
    assert ChatMessage.objects.filter(game=game).count() <= talk.RATE
    [row] = Notification.objects.filter(kind=Notification.Kind.ANSWER)
    assert len(json.dumps(row.verdict)) < 20_000
