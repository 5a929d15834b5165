"""Where a reply's commands end, in HTML and in plain text (QA, M1): adjacent blocks of an
HTML reply (``<div>build ...</div><div>end</div>``) are adjacent lines, so both commands are
played; in plain text, a command below a blank line is not silently dropped: the reply is
refused whole and the answer says which lines."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest

from games.models import Move
from notifications.services import notify_game
from tests.notifications.conftest import commands_offered, deliver, reply_to, text_part

pytestmark = pytest.mark.django_db


@pytest.fixture
def lords(make_game: Any, ada: Any, bob: Any, smtp: Any) -> Any:
    """A Lords of Vegas game, its first player's turn email, a building it offers."""
    pytest.importorskip("games.engines.lords_of_vegas.engine")
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    build = next(c for c in commands_offered(message) if c.startswith("build"))
    return game, message, build


def _answer(smtp: Any) -> EmailMessage:
    messages = smtp.wait_for(2)
    assert len(smtp.wait_for(3, timeout=0.3)) == 2
    return messages[-1]


def test_adjacent_html_blocks_are_adjacent_lines(lords: Any, smtp: Any) -> None:
    game, message, build = lords
    reply = EmailMessage()
    reply["From"] = str(message["To"])
    reply["To"] = str(message["Reply-To"])
    reply["Subject"] = f"Re: {message['Subject']}"
    reply["Message-ID"] = "<blocks@mail.example.org>"
    reply.set_content(f"<div>{build}</div><div>end</div><div><br></div><div>Ada</div>", "html")
    printed = deliver(reply.as_bytes())
    assert printed.startswith("played"), printed
    moves = Move.objects.filter(game=game, source="email").order_by("seq")
    assert [m.text for m in moves] == [build, "end"]
    assert "Lines ignored (after your commands):\n    Ada\n" in text_part(_answer(smtp))


def test_a_command_below_a_blank_line_refuses_the_reply(lords: Any, smtp: Any) -> None:
    game, message, build = lords
    printed = deliver(reply_to(message, f"{build}\n\nend\nThanks"))
    assert printed.startswith("refused"), printed
    assert not Move.objects.filter(game=game, source="email").exists()
    answer = _answer(smtp)
    assert "Not played: nothing was changed" in answer["Subject"]
    text = " ".join(text_part(answer).split())
    assert "a command below a blank line: 'end'" in text
