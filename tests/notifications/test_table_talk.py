"""Table talk through every door (issue 11): a message said on the board page, through the
API and in an email reply reaches the other players' pages, API answers and turn emails; a
private message reaches its two players and nobody else, wherever one looks; mutes, hidden
messages, limits and escaping; private notes."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import ChatMessage, Game, Seat
from games.services import talk
from notifications import talk_lines
from notifications.addresses import reply_address
from notifications.services import notify_game
from tests.notifications.conftest import deliver, text_part, whole

pytestmark = pytest.mark.django_db

WHISPER = "psst the Strip lot is yours for 7"


def _reply(game: Game, user: Any, body: str) -> bytes:
    """A reply as a mail client sends it, to the seat's signed address."""
    seat = Seat.objects.get(game=game, user=user)
    message = EmailMessage()
    message["From"] = user.email
    message["To"] = reply_address(game.pk, seat.pk)
    message["Subject"] = f"Re: [Lords #{game.pk}]"
    message["Message-ID"] = make_msgid(domain="mail.example.org")
    message.set_content(f"{body}\n\n-- \nsigned\n\nOn Monday, Lords wrote:\n> say: quoted\n")
    return message.as_bytes()


def _page(user: Any, game: Game, query: str = "") -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _three_doors(game: Game, ada: Any, bob: Any, cy: Any, smtp: Any) -> None:
    """Ada says on the page, Bob through the API, Cy by email (one to the table, one to
    Ada only)."""
    web = Client()
    web.force_login(ada)
    response = web.post(f"/games/{game.pk}/chat/", {"text": "Hello <b>table</b> & all"})
    assert response.status_code == 302
    answer = _api(bob).post(
        f"/api/v1/games/{game.pk}/chat/", {"text": "Said through the API"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["author_name"] == bob.name
    printed = deliver(_reply(game, cy, f"say: Hi from my mailbox\nto Ada: {WHISPER}"))
    assert printed.startswith("said"), printed
    [said] = [m for m in smtp.wait_for(1) if "Your messages" in m["Subject"]]
    assert "say: Hi from my mailbox" in text_part(said)
    assert f"to Ada: {WHISPER}" in text_part(said)


def test_what_is_said_at_each_door_reaches_the_others(make_game, ada, bob, cy, smtp):
    game = make_game(ada, bob, cy)
    _three_doors(game, ada, bob, cy, smtp)

    bobs_page = _page(bob, game)
    assert "Hello &lt;b&gt;table&lt;/b&gt; &amp; all" in bobs_page  # escaped
    assert "<b>table</b>" not in bobs_page
    assert "Said through the API" in bobs_page and "Hi from my mailbox" in bobs_page
    assert WHISPER not in bobs_page
    assert WHISPER in _page(ada, game)
    # newest first
    assert bobs_page.index("Hi from my mailbox") < bobs_page.index("Said through the API")

    listed = _api(ada).get(f"/api/v1/games/{game.pk}/chat/").json()
    assert [m["text"] for m in listed][:2] == [WHISPER, "Hi from my mailbox"]
    assert listed[0]["to"] == Seat.objects.get(game=game, user=ada).order
    newest = listed[0]["id"]
    assert _api(ada).get(f"/api/v1/games/{game.pk}/chat/", {"since": newest}).json() == []

    # The turn email: "said since your last move", in each one's own view.
    smtp.messages.clear()
    notify_game(game_id=game.pk)
    [turn] = smtp.wait_for(1)
    text = text_part(turn)
    assert "Said since your last move:" in text
    assert "Hello <b>table</b> & all" in text  # the text part is plain text
    assert "Hello &lt;b&gt;table&lt;/b&gt; &amp; all" in turn.get_body(("html",)).get_content()
    assert (WHISPER in text) == (turn["To"] == ada.email)


def test_a_private_message_appears_only_to_its_two_players(
    make_game, ada, bob, cy, dee, smtp, played
):
    """Every page, API answer and email of the game, to each player and to a spectator."""
    game = make_game(ada, bob, cy, seats=4)
    _three_doors(game, ada, bob, cy, smtp)
    notify_game(game_id=game.pk)
    played(game, 3)
    notify_game(game_id=game.pk)
    smtp.wait_for(3)
    seen: dict[str, list[str]] = {}
    paths = ["", "chat/", "moves/", "export/", "trades/", "notes/", "decisions/"]
    for user in (ada, bob, cy, dee):
        answers = [_page(user, game) if user != dee else ""]
        if user == dee:
            client = Client()
            client.force_login(dee)
            answers.append(client.get(f"/games/{game.pk}/").content.decode())
        answers += [_api(user).get(f"/api/v1/games/{game.pk}/{p}").content.decode() for p in paths]
        answers += [whole(m) for m in smtp.messages if m["To"] == user.email]
        seen[user.email] = [a for a in answers if WHISPER in a]
    assert seen[ada.email] and seen[cy.email]
    assert seen[bob.email] == [] and seen[dee.email] == []


def test_a_muted_player_is_not_shown_and_staff_hide_a_message(
    make_game, ada, bob, cy, admin_client
):
    game = make_game(ada, bob, cy)
    talk.say(game=game, user=bob, text="buy my lot, buy it now")
    hidden = talk.say(game=game, user=cy, text="something rude")
    web = Client()
    web.force_login(ada)
    bob_order = Seat.objects.get(game=game, user=bob).order
    web.post(f"/games/{game.pk}/chat/mute/", {"order": bob_order, "muted": "1"})
    admin_client.post(
        "/admin/games/chatmessage/",
        {"action": "hide", "_selected_action": [hidden.pk]},
    )

    page = _page(ada, game)
    assert "buy my lot" not in page and "something rude" not in page
    assert "buy my lot" in _page(cy, game)  # muted for Ada only
    assert "something rude" not in _page(bob, game)  # hidden for everyone
    assert ChatMessage.objects.get(pk=hidden.pk).hidden_at is not None
    web.post(f"/games/{game.pk}/chat/mute/", {"order": bob_order, "muted": "0"})
    assert "buy my lot" in _page(ada, game)


def test_the_limits_refuse_and_write_nothing(make_game, ada, bob, cy):
    game = make_game(ada, bob)
    api = _api(ada)
    too_long = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "x" * 1001}, format="json")
    assert too_long.status_code == 400
    empty = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "   "}, format="json")
    assert empty.status_code == 400
    to_self = Seat.objects.get(game=game, user=ada).order
    whisper = api.post(
        f"/api/v1/games/{game.pk}/chat/", {"text": "me", "to": to_self}, format="json"
    )
    assert whisper.status_code == 400
    stranger = _api(cy).post(f"/api/v1/games/{game.pk}/chat/", {"text": "hi"}, format="json")
    assert stranger.status_code == 403
    assert not ChatMessage.objects.exists()
    for n in range(talk.RATE):
        assert (
            api.post(f"/api/v1/games/{game.pk}/chat/", {"text": f"m{n}"}, format="json").status_code
            == 201
        )
    fast = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "one more"}, format="json")
    assert fast.status_code == 429
    assert "at most 10 messages a minute" in fast.json()["error"]["message"]
    assert ChatMessage.objects.count() == talk.RATE
    # Older messages page back on the board page.
    ChatMessage.objects.update(created_at=timezone.now() - talk.RATE_WINDOW * 2)
    page = _page(ada, game)
    assert "m9" in page and "chat_before=" not in page
    assert "m0" in page


def test_an_email_reply_with_messages_and_a_command_does_both(make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [turn] = smtp.wait_for(1)
    user = ada if turn["To"] == ada.email else bob
    from tests.notifications.conftest import commands_offered

    command = commands_offered(turn)[0]
    raw = _reply(game, user, f"say: good luck\n{command}\nto Nobody: hi")
    printed = deliver(raw)
    assert printed.startswith("played"), printed
    [answer] = [m for m in smtp.wait_for(2) if "Played" in m["Subject"]]
    text = text_part(answer)
    assert "say: good luck" in text
    assert "no player of game" in text and "Nobody" in text
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["good luck"]
    deliver(raw)  # a redelivery posts nothing again
    assert ChatMessage.objects.count() == 1


def test_private_notes_are_the_players_own(make_game, ada, bob, played):
    game = make_game(ada, bob)
    web = Client()
    web.force_login(ada)
    web.post(f"/games/{game.pk}/notes/", {"text": "Bob hoards <Strip> lots"})
    assert "Bob hoards &lt;Strip&gt; lots" in _page(ada, game)
    assert "hoards" not in _page(bob, game)
    assert _api(bob).get(f"/api/v1/games/{game.pk}/notes/").json() == {"text": ""}
    changed = _api(bob).post(f"/api/v1/games/{game.pk}/notes/", {"text": "mine"}, format="json")
    assert changed.json() == {"text": "mine"}
    played(game)  # to the end
    assert game.status == Game.Status.FINISHED
    assert "Bob hoards" in _api(ada).get(f"/api/v1/games/{game.pk}/notes/").json()["text"]
    assert "Bob hoards &lt;Strip&gt; lots" in _page(ada, game)


@pytest.mark.parametrize(
    ("language", "say", "to"),
    [
        ("en", "say:", "to NAME:"),
        ("fr", "dis\N{NO-BREAK SPACE}:", "à NOM\N{NO-BREAK SPACE}:"),
        ("it", "di:", "a NOME:"),
    ],
)
def test_the_talk_hint_teaches_the_words_of_the_readers_language(
    make_game, ada, bob, smtp, language, say, to
):
    """Found by QA: the French and Italian emails taught "say:" and "to NAME:"; the hint
    shows the words of the reader's language, and a reply read with them is talk."""
    game = make_game(ada, bob)
    waiting = Seat.objects.select_related("user").get(game=game, to_act=True)
    other = Seat.objects.select_related("user").exclude(pk=waiting.pk).get(game=game)
    reader = waiting.user
    assert reader is not None
    reader.language = language
    reader.save(update_fields=["language"])
    talk.say(game=game, user=other.user, text="Good luck", source=ChatMessage.Source.WEB)
    smtp.messages.clear()
    notify_game(game_id=game.pk)
    [turn] = [m for m in smtp.wait_for(1) if m["To"] == reader.email]
    for part in (text_part(turn), turn.get_body(("html",)).get_content()):
        assert say in part and to in part, part
        if language != "en":
            assert "say:" not in part and "to NAME:" not in part
    name = to.split()[1].rstrip(":")  # NAME, NOM, NOME
    said, rest = talk_lines.split([f"{say} hello", f"{to.replace(name, other.name)} hi"])
    assert rest == [] and [(line.to, line.text) for line in said] == [
        ("", "hello"),
        (other.name, "hi"),
    ]
