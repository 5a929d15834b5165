"""The email door under malformed input (hardening issue, rows 5 and 9): whatever a reply
holds, it gets its answer (or, for strangers and robots, a logged refusal), through both
doors alike. ``manage.py receive_email`` exits 75 ("try again later") only for a fault that
will pass (the database or the outgoing mail server down), never for the message itself; the
webhook answers a payload it cannot read with a 400, not a 500. Both doors read the message
the same way, so the same reply gets the same verdict through either."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

import pytest

from games.models import Move
from notifications.models import Notification
from tests.notifications.conftest import deliver, reply_to, text_part
from tests.notifications.test_inbound_doors import SECRET, URL, _auth, postmark_payload

pytestmark = pytest.mark.django_db


def _pipe(client: Any, raw: bytes) -> str:
    """``manage.py receive_email`` (a CommandError, with its exit code, propagates)."""
    return deliver(raw)


def _webhook(client: Any, raw: bytes) -> str:
    """Postmark's inbound webhook, with the right secret."""
    response = client.post(
        URL,
        postmark_payload(raw),
        content_type="application/json",
        HTTP_AUTHORIZATION=_auth(SECRET),
    )
    assert response.status_code == 200, response.content[:500]
    return ""


DOORS: dict[str, Callable[[Any, bytes], str]] = {"pipe": _pipe, "webhook": _webhook}


def _answer(smtp: Any) -> EmailMessage:
    """The one answer after the turn email."""
    messages = smtp.wait_for(2)
    assert len(messages) == 2, [m["Subject"] for m in messages]
    assert len(smtp.wait_for(3, timeout=0.3)) == 2  # and no other
    return messages[-1]


# -- row 5: a NUL byte ---------------------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
def test_a_nul_byte_after_a_command_is_dropped_and_the_command_played(
    client: Any, turn: Any, smtp: Any, door: str
) -> None:
    game, message, command = turn
    DOORS[door](client, reply_to(message, command + "\x00"))
    assert Move.objects.get(game=game, source="email").text == command
    answer = _answer(smtp)
    assert "Played" in answer["Subject"]
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(answer)


@pytest.mark.parametrize("door", DOORS)
def test_a_nul_byte_in_a_bad_command_gets_the_refusal(
    client: Any, turn: Any, smtp: Any, door: str
) -> None:
    game, message, _ = turn
    DOORS[door](client, reply_to(message, "fly\x00 to the moon"))
    assert not Move.objects.filter(game=game, source="email").exists()
    answer = _answer(smtp)
    assert answer["Subject"].strip().endswith("Not played: nothing was changed")
    text = text_part(answer)
    assert "Your commands, as received:\n    fly to the moon\n" in text
    assert "\x00" not in text


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("junk", [b"\x00", b"\xff"])
def test_a_message_id_with_junk_in_it_is_answered_once(
    client: Any, turn: Any, smtp: Any, door: str, junk: bytes
) -> None:
    game, message, command = turn
    raw = reply_to(message, command).replace(b"Message-ID: <", b"Message-ID: <" + junk, 1)
    DOORS[door](client, raw)
    DOORS[door](client, raw)  # redelivered: the same key (a digest of the message)
    assert Move.objects.filter(game=game, source="email").count() == 1
    answer = _answer(smtp)
    assert "Played" in answer["Subject"]
    assert junk.decode("latin-1") not in answer["In-Reply-To"]  # not threaded under it
    assert Notification.objects.filter(kind=Notification.Kind.ANSWER).count() == 1


# -- row 9: the webhook's bad payloads, and one reading of a message -----------------------


@pytest.mark.parametrize(
    "payload",
    [
        b"{not json",
        b"\xff\xfe not utf-8",
        b"[]",
        b'"a string"',
        b'{"Headers": "not a list"}',
        b'{"Headers": [{"Value": "no name"}]}',
        b'{"FromFull": "ada@example.org"}',
        b'{"ToFull": [1, 2]}',
        b'{"Attachments": [{"Name": "x.txt"}]}',
    ],
)
def test_a_payload_the_webhook_cannot_read_is_a_400_and_nothing_is_written(
    client: Any, turn: Any, smtp: Any, payload: bytes
) -> None:
    game, _, _ = turn
    response = client.post(
        URL, payload, content_type="application/json", HTTP_AUTHORIZATION=_auth(SECRET)
    )
    assert response.status_code == 400, response.content[:500]
    assert b"payload" in response.content
    assert not Move.objects.filter(game=game).exclude(seq=0).exists()
    assert not Notification.objects.filter(kind=Notification.Kind.ANSWER).exists()
    assert len(smtp.wait_for(2, timeout=0.3)) == 1


def test_a_bad_payload_with_a_wrong_secret_is_still_the_secrets_400(client: Any, turn: Any) -> None:
    response = client.post(
        URL, b"{not json", content_type="application/json", HTTP_AUTHORIZATION=_auth("x:y")
    )
    assert response.status_code == 400
    assert b"payload" not in response.content  # the secret is checked first


@pytest.mark.parametrize("door", DOORS)
def test_an_html_only_reply_is_played_through_either_door(
    client: Any, turn: Any, smtp: Any, door: str
) -> None:
    game, message, command = turn
    DOORS[door](client, reply_to(message, command, html=True))
    assert Move.objects.get(game=game, source="email").text == command
    assert "Played" in _answer(smtp)["Subject"]


@pytest.mark.parametrize("door", DOORS)
def test_an_empty_text_part_beside_the_html_one_reads_the_html(
    client: Any, turn: Any, smtp: Any, door: str
) -> None:
    game, message, command = turn
    reply = EmailMessage()
    reply["From"] = f"Ada <{message['To']}>"
    reply["To"] = str(message["Reply-To"])
    reply["Subject"] = f"Re: {message['Subject']}"
    reply["Message-ID"] = "<empty-text@mail.example.org>"
    reply.set_content("\n")
    reply.add_alternative(f"<p>{command}</p><blockquote>end</blockquote>", subtype="html")
    DOORS[door](client, reply.as_bytes())
    assert Move.objects.get(game=game, source="email").text == command
    assert "Played" in _answer(smtp)["Subject"]


# -- row 5: what never passes is never retried ---------------------------------------------


@pytest.fixture
def refusing_database(turn: Any) -> None:
    """PostgreSQL refuses every answer's row (a real constraint, added in the test's
    transaction, after the turn email's row): a failure another delivery would repeat."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    table = Notification._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending checks: ALTER may run
        cursor.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT no_answers "
            f"CHECK (kind <> '{Notification.Kind.ANSWER}') NOT VALID"
        )


def test_the_pipe_refuses_for_good_what_the_database_will_never_take(
    turn: Any, smtp: Any, refusing_database: None, caplog: Any
) -> None:
    from django.core.management import CommandError

    _, message, command = turn
    with pytest.raises(CommandError) as raised:
        deliver(reply_to(message, command))
    assert raised.value.returncode == 65  # the MTA returns it to its sender, no retries
    assert "message refused" in caplog.text
    assert len(smtp.wait_for(2, timeout=0.3)) == 1


def test_the_webhook_refuses_for_good_what_the_database_will_never_take(
    client: Any, turn: Any, smtp: Any, refusing_database: None, caplog: Any
) -> None:
    _, message, command = turn
    _webhook(client, reply_to(message, command))  # a 200: Postmark does not post it again
    assert "refused: the database would not take it" in caplog.text
    assert len(smtp.wait_for(2, timeout=0.3)) == 1
