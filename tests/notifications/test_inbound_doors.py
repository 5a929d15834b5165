"""The two doors of the email door: Postmark's inbound webhook through django-anymail (its
documented JSON posted to the real URL with the webhook secret) and the exit codes of
``manage.py receive_email`` that a mail server pipe relies on."""

from __future__ import annotations

import base64
import email
import email.policy
import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Move
from notifications.services import notify_game
from tests.notifications.conftest import commands_offered, reply_to, text_part

pytestmark = pytest.mark.django_db

URL = "/anymail/postmark/inbound/"
SECRET = "postmark:a-long-webhook-secret"
ROOT = Path(__file__).resolve().parents[2]


def postmark_payload(raw: bytes) -> dict[str, Any]:
    """Postmark's inbound webhook JSON for a message, in the documented shape
    (https://postmarkapp.com/developer/webhooks/inbound-webhook): parsed addresses, the
    bodies, and the other headers as a Name/Value list (Postmark lists Return-Path first)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    sender = message["From"].addresses[0]
    recipient = message["To"].addresses[0]
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    shown = {"from", "to", "cc", "bcc", "subject", "date", "reply-to"}
    return {
        "FromName": sender.display_name,
        "MessageStream": "inbound",
        "From": sender.addr_spec,
        "FromFull": {"Email": sender.addr_spec, "Name": sender.display_name, "MailboxHash": ""},
        "To": str(message["To"]),
        "ToFull": [
            {"Email": recipient.addr_spec, "Name": recipient.display_name, "MailboxHash": ""}
        ],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": recipient.addr_spec,
        "Subject": str(message["Subject"]),
        "MessageID": "73e6d360-66eb-11e1-8e72-a8904824019b",
        "ReplyTo": "",
        "MailboxHash": "",
        "Date": str(message["Date"]),
        "TextBody": plain.get_content() if plain is not None else "",
        "HtmlBody": html.get_content() if html is not None else "",
        "StrippedTextReply": "",
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender.addr_spec}>"},
            {"Name": "X-Spam-Status", "Value": "No"},
            {"Name": "X-Spam-Score", "Value": "-0.1"},
            *({"Name": k, "Value": str(v)} for k, v in message.items() if k.lower() not in shown),
        ],
        "Attachments": [],
    }


def _auth(secret: str) -> str:
    return "Basic " + base64.b64encode(secret.encode()).decode()


@pytest.fixture
def reply(make_game, ada, bob, smtp, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [turn] = smtp.wait_for(1)
    command = commands_offered(turn)[0]
    return game, command, reply_to(turn, command)


def test_postmarks_inbound_webhook_plays_the_reply(client, reply, smtp):
    game, command, raw = reply
    response = client.post(
        URL,
        postmark_payload(raw),
        content_type="application/json",
        HTTP_AUTHORIZATION=_auth(SECRET),
    )
    assert response.status_code == 200, response.content
    move = Move.objects.get(game=game, source="email")
    assert move.text == command
    [answer] = [m for m in smtp.wait_for(2) if "Played" in m["Subject"]]
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(answer)
    # Postmark posts again when it does not get a 2xx in time: one move, one answer.
    again = client.post(
        URL,
        postmark_payload(raw),
        content_type="application/json",
        HTTP_AUTHORIZATION=_auth(SECRET),
    )
    assert again.status_code == 200
    assert Move.objects.filter(game=game, source="email").count() == 1
    assert len(smtp.wait_for(3, timeout=0.5)) == 2


@pytest.mark.parametrize("secret", ["postmark:wrong", None])
def test_a_wrong_or_missing_secret_is_refused_and_nothing_written(client, reply, smtp, secret):
    game, _, raw = reply
    extra = {} if secret is None else {"HTTP_AUTHORIZATION": _auth(secret)}
    response = client.post(URL, postmark_payload(raw), content_type="application/json", **extra)
    assert response.status_code == 400  # anymail: a SuspiciousOperation
    assert not Move.objects.filter(game=game).exclude(seq=0).exists()
    assert len(smtp.wait_for(2, timeout=0.5)) == 1


def test_without_a_configured_secret_the_webhook_refuses_everything(client, reply, settings):
    game, _, raw = reply
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    with pytest.warns(Warning, match="insecure"):
        response = client.post(URL, postmark_payload(raw), content_type="application/json")
    assert response.status_code == 400
    assert not Move.objects.filter(game=game).exclude(seq=0).exists()


# -- manage.py receive_email: exit codes -------------------------------------------------------


def test_an_empty_stdin_is_a_data_error():
    import io

    with pytest.raises(CommandError) as raised:
        call_command("receive_email", stdin=io.BytesIO(b""))
    assert raised.value.returncode == 65


def test_a_message_over_the_size_limit_is_returned_to_its_sender(reply):
    """Found by the security test: the pipe read any size whole (15 MB took 480 MB of
    memory). Over the limit the MTA bounces it, read no further; nothing is played."""
    import io

    from notifications.management.commands.receive_email import MAX_BYTES

    game, _, raw = reply
    padded = raw + b"\n" + b"x" * (MAX_BYTES - len(raw))
    with pytest.raises(CommandError) as raised:
        call_command("receive_email", stdin=io.BytesIO(padded))
    assert raised.value.returncode == 65
    assert "too large" in str(raised.value)
    assert not Move.objects.filter(game=game, source="email").exists()


def test_an_unreachable_database_asks_the_mta_to_retry(reply):
    _, _, raw = reply
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:9/lords",  # nothing listens there
        "EMAIL_URL": "consolemail://",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "receive_email"],
        input=raw,
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 75, done.stderr.decode()[-2000:]
    assert b"transient failure" in done.stderr


def test_an_smtp_failure_for_the_answer_asks_the_mta_to_retry(reply, settings):
    import io

    game, _, raw = reply
    settings.EMAIL_PORT = 9  # the answer cannot be sent
    with pytest.raises(CommandError) as raised:
        call_command("receive_email", stdin=io.BytesIO(raw))
    assert raised.value.returncode == 75
    assert Move.objects.filter(game=game, source="email").count() == 1  # kept: replayed later
