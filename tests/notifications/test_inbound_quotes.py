"""What counts as the player's commands in a reply: their own lines, not what they quoted
(English, French, Italian and Outlook quote headers, signatures, HTML-only replies, other
charsets), with property tests for the stripper."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Move
from notifications.quotes import body_text, commands_of, html_to_text, reply_lines
from notifications.services import notify_game
from tests.notifications.conftest import commands_offered, deliver, reply_to

QUOTE = "> It is your turn in Vegas #3.\n>\n>   place 1\n>   place 5\n"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, 24 Nov 2026 at 18:00, Lords <turns@localhost> wrote:",
        "On Tue, 24 Nov 2026 at 18:00, Lords <\nplay+g3s5kabc@localhost> wrote:",
        "Le mar. 24 nov. 2026 à 18:00, Lords <turns@localhost> a écrit :",
        "Il giorno mar 24 nov 2026 alle ore 18:00 Lords <turns@localhost> ha scritto:",
    ],
)
def test_it_cuts_at_the_attribution_line(attribution):
    body = f"place 3\n\n{attribution}\nplace 1 (unquoted by a sloppy client)\n{QUOTE}"
    assert reply_lines(body) == ["place 3"]


@pytest.mark.parametrize(
    "block",
    [
        "-----Original Message-----\nFrom: Lords\nSent: Tuesday\nplace 1",
        "----- Message d'origine -----\nDe : Lords\nplace 1",
        "________________________________\nFrom: Lords <turns@localhost>\n"
        "Sent: Tuesday, November 24, 2026 18:00\nTo: Ada\nSubject: Your turn\n\nplace 1",
        "De : Lords <turns@localhost>\nEnvoyé : mardi 24 novembre 2026 18:00\nÀ : Ada\nplace 1",
        "Da: Lords <turns@localhost>\nInviato: martedì 24 novembre 2026 18:00\nplace 1",
    ],
)
def test_it_cuts_at_an_outlook_original_message(block):
    assert reply_lines(f"place 3\n\n{block}\n") == ["place 3"]


def test_it_cuts_at_the_signature_and_drops_quoted_lines_anywhere():
    body = "> place 1\nplace 3\n  > place 2\nplace 4; place 5\n-- \nAda\nplace 6\n"
    assert reply_lines(body) == ["place 3", "place 4; place 5"]
    assert commands_of(body) == ["place 3", "place 4", "place 5"]
    assert reply_lines("place 3\n--\nAda") == ["place 3"]
    assert reply_lines("place 3\r\n\r\nSent from my iPhone\r\n") == ["place 3"]


def test_it_reads_html_without_the_blockquote():
    html = (
        "<html><head><style>p {color: red}</style></head><body><div>place 3<br>end</div>"
        "<div class='gmail_quote'><div>On Tue, Lords wrote:<br></div>"
        "<blockquote><p>place 1</p><blockquote>place 2</blockquote></blockquote></div>"
        "<p>caf&eacute;</p></body></html>"
    )
    text = html_to_text(html)
    assert "place 1" not in text and "place 2" not in text and "color" not in text
    assert reply_lines(text) == ["place 3", "end"]


def _message(content: str, subtype: str = "plain", charset: str = "utf-8") -> EmailMessage:
    message = EmailMessage()
    message.set_content(content, subtype=subtype, charset=charset)
    raw = message.as_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_it_decodes_the_declared_charset():
    assert body_text(_message("placer 3 — déjà", charset="utf-8")) == "placer 3 — déjà\n"
    assert body_text(_message("placer 3 à côté", charset="iso-8859-1")) == "placer 3 à côté\n"
    assert "placer 3" in body_text(_message("<p>placer 3</p>", subtype="html"))


# -- properties -------------------------------------------------------------------------------

lines = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40).map(
    lambda s: s.replace("\n", " ").replace("\r", " ")
)
commands = st.from_regex(r"(place [1-6]|placer [1-6]|end|build [A-F][1-9] sphinx)", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_it_never_crashes_and_returns_only_unquoted_stripped_lines(text):
    own = reply_lines(text)
    unquoted = [
        line.strip()
        for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if not line.strip().startswith(">")
    ]
    for line in own:
        assert line and line == line.strip() and not line.startswith(">")
        assert line in unquoted
    for command in commands_of(text):
        assert command and ";" not in command


@settings(max_examples=200, deadline=None)
@given(
    st.lists(commands, min_size=1, max_size=5),
    st.lists(lines, max_size=8),
    st.sampled_from(
        [
            "On Tue, 24 Nov 2026, Lords <turns@localhost> wrote:",
            "Le mar. 24 nov. 2026, Lords <turns@localhost> a écrit :",
            "Il giorno mar 24 nov 2026 Lords <turns@localhost> ha scritto:",
            "-----Original Message-----",
            "-- ",
        ]
    ),
)
def test_it_keeps_the_commands_above_the_quote_and_nothing_quoted(mine, quoted, header):
    body = "\n".join(mine) + "\n\n" + header + "\n" + "\n".join(f"> {q}" for q in quoted)
    body += "\n" + "\n".join(quoted)  # even unquoted text after the header is dropped
    assert reply_lines(body) == mine
    assert commands_of(body) == mine


# -- end to end: the same through manage.py receive_email -------------------------------------


@pytest.fixture
def turn_email(make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [message] = smtp.wait_for(1)
    return game, message


@pytest.mark.django_db
@pytest.mark.parametrize(
    "attribution, charset",
    [
        ("Le mar. 24 nov. 2026 à 18:00, Lords <turns@localhost> a écrit :", "utf-8"),
        ("Le mar. 24 nov. 2026 à 18:00, Lords <turns@localhost> a écrit :", "iso-8859-1"),
        ("Il giorno mar 24 nov 2026 alle ore 18:00 Lords <turns@localhost> ha scritto:", "utf-8"),
    ],
)
def test_a_french_or_italian_reply_in_any_charset_plays(turn_email, smtp, attribution, charset):
    game, message = turn_email
    command = commands_offered(message)[0].replace("place", "placer")
    raw = reply_to(message, command, attribution=attribution, charset=charset, signature="Adé")
    if charset != "utf-8":
        assert f'charset="{charset}"'.encode() in raw
    assert deliver(raw).startswith("played:")
    assert Move.objects.filter(game=game, source="email").count() == 1


@pytest.mark.django_db
def test_an_html_only_reply_plays(turn_email, smtp):
    game, message = turn_email
    command = commands_offered(message)[0]
    raw = reply_to(message, command, html=True)
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage) and parsed.get_body(("plain",)) is None
    assert deliver(raw).startswith("played:")
    assert Move.objects.get(game=game, source="email").text == command
