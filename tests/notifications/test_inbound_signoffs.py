"""People sign their mail: a reply whose commands are followed by a greeting, a name or
"Sent from my phone" (with or without a "-- " separator, after a blank line or right under
the commands) plays its commands, and the answer says which lines were ignored. A line that
is not a command *among* the commands still refuses the whole reply, in the player's
language. Vegas and Lords of Vegas, in English, French and Italian."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from hypothesis import given
from hypothesis import strategies as st

from games.engines.base import IllegalCommand
from games.engines.registry import get_engine
from games.models import Game, Move, Seat
from notifications.quotes import own_lines
from notifications.services import notify_game
from tests.notifications.conftest import deliver, text_part

ATTRIBUTION = {
    "en": "On Tue, 24 Nov 2026 at 18:00, Lords <turns@localhost> wrote:",
    "fr": "Le mar. 24 nov. 2026 à 18:00, Lords <turns@localhost> a écrit :",
    "it": "Il giorno mar 24 nov 2026 alle ore 18:00 Lords <turns@localhost> ha scritto:",
}
# The answer's line above the ignored lines, and the frame's refusal subject, per language.
IGNORED = {
    "en": "Lines ignored (after your commands):",
    "fr": "Lignes ignorées (après tes commandes) :",
    "it": "Righe ignorate (dopo i tuoi comandi):",
}
REFUSED = {
    "en": "Not played: nothing was changed",
    "fr": "Non joué : rien n'a été modifié",
    "it": "Non giocato: non è cambiato nulla",
}
NO_COMMAND = {
    "en": "your reply holds no command",
    "fr": "ta réponse ne contient aucune commande",
    "it": "la tua risposta non contiene alcun comando",
}
SIGN_OFFS = [
    "Thanks,",
    "Thanks!",
    "Cheers",
    "Best regards,",
    "Merci !",
    "Merci,",
    "Bonne journée",
    "Cordialement",
    "Grazie,",
    "Ciao!",
    "A presto",
    "Cordiali saluti",
    "Sent from my phone",
    "Envoyé de mon iPhone",
    "Inviato da iPhone",
]
NAMES = ["Ada", "Bob", "Ada Lovelace", "B.", "-- Ada"]
# Well-formed commands (the property needs no game: whether a line is a command is the
# engine's parse, which knows no position).
WELL_FORMED = {
    "vegas": ["place 1", "place 6", "placer 3", "piazza 2", "PLACE 5", "4"],
    "lords-of-vegas": ["build E4 albion", "end", "build a2 sphinx", "end; end"],
}


def _reply(original: EmailMessage, body: str, language: str = "en") -> bytes:
    """The player's reply as a mail client without a signature block sends it: ``body``,
    a blank line, the attribution line and the original quoted with "> "."""
    reply = EmailMessage()
    reply["From"] = f"Player <{original['To']}>"
    reply["To"] = str(original["Reply-To"])
    reply["Subject"] = f"Re: {original['Subject']}"
    reply["Date"] = format_datetime(timezone.now())
    reply["Message-ID"] = make_msgid(domain="mail.example.org")
    reply["In-Reply-To"] = original["Message-ID"]
    quoted = "\n".join(f"> {line}".rstrip() for line in text_part(original).split("\n"))
    reply.set_content(f"{body}\n\n{ATTRIBUTION[language]}\n{quoted}\n")
    return reply.as_bytes()


def _turn(make_user: Any, make_game: Any, smtp: Any, game_type: str, language: str) -> Any:
    """A started game between two players writing ``language``, the turn email its first
    player received, their seat, and a reply's worth of legal commands (Lords of Vegas:
    a build, then ``end``, as Ada wrote them)."""
    ada = make_user("ada", language=language)
    bob = make_user("bob", language=language)
    game = make_game(ada, bob, game_type=game_type)
    notify_game(game_id=game.pk)
    [turn] = smtp.wait_for(1)
    seat = Seat.objects.get(game=game, user__email=turn["To"])
    engine = get_engine(game.game_type)
    legal = [engine.format(c) for c in engine.legal_commands(game.state, seat.order)]
    if game_type == "vegas":
        commands = [legal[0]]
    else:
        # (a seat with no lot to build on, as some seeds deal it, just ends its turn)
        commands = [*[c for c in legal if c.startswith("build ")][:1], "end"]
    return game, turn, seat, commands


def _answer(smtp: Any, count: int = 2) -> EmailMessage:
    messages = smtp.wait_for(count)
    assert len(messages) == count
    return messages[-1]


def _played_by_email(game: Game) -> list[str]:
    return list(
        Move.objects.filter(game=game, source="email")
        .order_by("seq")
        .values_list("text", flat=True)
    )


GAMES = ["vegas", "lords-of-vegas"]


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", GAMES)
@pytest.mark.parametrize(
    "language, after, ignored",
    [
        ("en", "\nThanks,\nAda", ["Thanks,", "Ada"]),
        ("fr", "\nMerci !\n-- \nBob", ["Merci !"]),
        ("it", "\nGrazie,\nAda", ["Grazie,", "Ada"]),
        ("fr", "\nEnvoyé de mon iPhone", []),
        ("en", "\nSent from my phone", []),
        ("it", "\nInviato da iPhone", []),
        (
            "en",
            "\n\n\nCheers,\n\nAda\nhttps://ada.example.org",
            ["Cheers,", "Ada", "https://ada.example.org"],
        ),
        ("fr", "\nBob", ["Bob"]),  # the name right under the commands, no blank line
        ("it", "\nCiao!\nAda", ["Ciao!", "Ada"]),
    ],
)
def test_a_reply_signed_off_plays_its_commands_and_says_what_it_ignored(
    make_user, make_game, smtp, game_type, language, after, ignored
):
    game, turn, _, commands = _turn(make_user, make_game, smtp, game_type, language)
    body = "\n".join(commands) + after

    assert deliver(_reply(turn, body, language)).startswith("played:")

    assert _played_by_email(game)[: len(commands)] == commands
    answer = _answer(smtp)
    assert REFUSED[language] not in answer["Subject"]
    text = text_part(answer)
    if ignored:
        listed = "".join(f"    {line}\n" for line in ignored)
        assert f"{IGNORED[language]}\n{listed}" in text, text
    else:
        assert IGNORED[language] not in text


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_ada_s_reply_plays_and_her_answer_is_in_her_language(make_user, make_game, smtp, language):
    """Issue 9: `build E4 albion` / `end` / blank / `Grazie,` / `Ada` was refused whole."""
    game, turn, _, commands = _turn(make_user, make_game, smtp, "lords-of-vegas", language)

    assert commands[0].startswith("build ") and commands[1] == "end"

    deliver(_reply(turn, f"{commands[0]}\nend\n\nGrazie,\nAda", language))

    assert _played_by_email(game)[:2] == commands
    html = _answer(smtp).get_body(preferencelist=("html",))
    assert html is not None
    content = str(html.get_content())
    assert "Grazie," in content and IGNORED[language].replace("'", "&#x27;") in content


def _nothing_written(game: Game) -> None:
    game.refresh_from_db()
    assert game.version == 0
    assert not Move.objects.filter(game=game, source="email").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "it"])
@pytest.mark.parametrize("game_type", GAMES)
def test_a_typo_among_the_commands_refuses_the_whole_reply(
    make_user, make_game, smtp, game_type, language
):
    game, turn, _, commands = _turn(make_user, make_game, smtp, game_type, language)
    typo = {"vegas": "plcae 5", "lords-of-vegas": "biuld A1 albion"}[game_type]
    lines = [commands[0], typo, *commands[1:], "place 6"][:3]
    body = "\n".join(lines) + "\nGrazie,\nAda"

    assert deliver(_reply(turn, body, language)).startswith("refused:")

    _nothing_written(game)
    answer = _answer(smtp)
    assert answer["Subject"].strip().endswith(REFUSED[language])
    text = text_part(answer)
    # The reason is the service's, said while the player's language was active.
    with translation.override(language):
        try:
            get_engine(game_type).parse(typo, options=game.options)
        except IllegalCommand as exc:
            reason = str(exc)
        numbered = gettext("command %(index)s of %(total)s: %(message)s") % {
            "index": 2,
            "total": 3,
            "message": reason,
        }
    assert f"\n    {numbered}\n" in text, text
    received = "".join(f"    {line}\n" for line in lines)
    assert received in text
    assert f"{IGNORED[language]}\n    Grazie,\n    Ada\n" in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, body",
    [("en", "Thanks,\nAda"), ("fr", "Merci !\n\nBob"), ("it", "Grazie mille!\nAda")],
)
@pytest.mark.parametrize("game_type", GAMES)
def test_a_reply_that_is_only_a_greeting_holds_no_command(
    make_user, make_game, smtp, game_type, language, body
):
    game, turn, _, _ = _turn(make_user, make_game, smtp, game_type, language)

    assert deliver(_reply(turn, body, language)).startswith("refused:")

    _nothing_written(game)
    answer = _answer(smtp)
    assert answer["Subject"].strip().endswith(REFUSED[language])
    assert NO_COMMAND[language] in text_part(answer)


# -- the reading, for any commands and any sign-off -------------------------------------------


def _sign_off() -> st.SearchStrategy[list[str]]:
    line = st.sampled_from(SIGN_OFFS + NAMES)
    blank = st.just("")
    return st.lists(st.one_of(line, line, blank), min_size=1, max_size=5).filter(
        lambda lines: any(lines)
    )


@pytest.mark.parametrize("game_type", GAMES)
def test_the_commands_read_are_exactly_the_commands_above_any_sign_off(game_type):
    from notifications.inbound import read_reply

    engine = get_engine(game_type)
    for command in WELL_FORMED[game_type]:
        for part in command.split(";"):
            engine.parse(part.strip())  # each one is a command indeed

    @given(
        commands=st.lists(st.sampled_from(WELL_FORMED[game_type]), min_size=1, max_size=6),
        gap=st.sampled_from(["", "\n", "\n\n  \n"]),
        sign_off=_sign_off(),
    )
    def read(commands: list[str], gap: str, sign_off: list[str]) -> None:
        text = "\n".join(commands) + "\n" + gap + "\n".join(sign_off) + "\n\n> quoted\n"
        reading = read_reply(own_lines(text), engine)
        assert reading.commands == commands
        assert set(reading.ignored) <= set(sign_off)

    read()
