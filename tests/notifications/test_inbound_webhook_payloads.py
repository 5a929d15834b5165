"""What Postmark posts for real replies (QA, H6): a reply with a photo is larger than the
API's request limit, and an empty file comes as ``"Content": ""``. Both are played and
answered (the webhook has its own, larger limit; attachments are not read)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from games.models import Move
from tests.notifications.conftest import reply_to, text_part
from tests.notifications.test_inbound_doors import SECRET, URL, _auth, postmark_payload
from tests.notifications.test_inbound_hardening import _answer

pytestmark = pytest.mark.django_db

PHOTO = 5 * 1024 * 1024


def _posted(client: Any, payload: dict[str, Any]) -> None:
    response = client.post(
        URL, payload, content_type="application/json", HTTP_AUTHORIZATION=_auth(SECRET)
    )
    assert response.status_code == 200, response.content[:300]


def _attached(payload: dict[str, Any], name: str, content: bytes) -> dict[str, Any]:
    attachment = {
        "Name": name,
        "Content": base64.b64encode(content).decode(),
        "ContentType": "image/jpeg",
        "ContentLength": len(content),
    }
    return {**payload, "Attachments": [attachment]}


def test_a_reply_with_a_photo_is_played(client: Any, turn: Any, smtp: Any, settings: Any) -> None:
    game, message, command = turn
    payload = _attached(postmark_payload(reply_to(message, command)), "board.jpg", b"\xff" * PHOTO)
    _posted(client, payload)
    assert Move.objects.get(game=game, source="email").text == command
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(_answer(smtp))
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < PHOTO  # (the API's limit is not raised)


def test_a_reply_with_an_empty_file_is_played(client: Any, turn: Any, smtp: Any) -> None:
    game, message, command = turn
    _posted(client, _attached(postmark_payload(reply_to(message, command)), "empty.txt", b""))
    assert Move.objects.get(game=game, source="email").text == command
    assert f"Played in Vegas #{game.pk}: {command}" in text_part(_answer(smtp))
