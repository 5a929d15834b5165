"""The French and Italian catalogs (locale/): the web pages and the game emails speak the
player's language, and every entry of each catalog is translated, placeholder for
placeholder, and compiled.

Updating them: ``DEBUG=true python manage.py makemessages -l fr -l it --ignore=.venv
--ignore=var --ignore=tests --ignore=benchmarks --ignore=docs``, translate what is new or
fuzzy, then ``python manage.py compilemessages --ignore=.venv`` (the .mo files are
committed: CI needs no gettext)."""

from __future__ import annotations

import gettext
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import translation

from games.models import Game
from notifications.services import notify_game
from tests.notifications.conftest import play
from tests.web.helpers import page_text

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("fr", "it")

# What a reader of each language must see (and the English it replaces).
PAGE = {
    "fr": ["Plateau", "Coups récents", "Joueurs", "Statut", "Mes parties", "Se déconnecter"],
    "it": ["Tabellone", "Mosse recenti", "Giocatori", "Stato", "Le mie partite", "Esci"],
}
PAGE_EN = ["Board", "Recent moves", "Sign out"]
TURN = {
    "fr": (
        "À toi de jouer — Vegas avec",
        ["Bonjour", "À toi de jouer dans Vegas #", "Tes commandes"],
    ),
    "it": ("Tocca a te — Vegas con", ["Ciao", "Tocca a te in Vegas #", "I tuoi comandi"]),
}
TURN_EN = ["It is your turn", "Your commands:", "To play, reply to this email"]
OVER = {
    "fr": ("Partie terminée — Vegas avec", ["La partie Vegas #", "est terminée."]),
    "it": ("Partita finita — Vegas con", ["La partita Vegas #", "è finita."]),
}


def squeeze(text: str) -> str:
    """Whitespace (the no-break spaces of French typography too) as single spaces."""
    return re.sub(r"\s+", " ", text)


# -- the web door -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_page_follows_the_browsers_accept_language(
    client: Any, make_user: Callable[..., Any], make_game: Callable[..., Any], language: str
) -> None:
    ada = make_user("ada", language=language)
    bob = make_user("bob", language=language)
    game = make_game(ada, bob)
    client.force_login(ada)
    response = client.get(f"/games/{game.pk}/", headers={"accept-language": language})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    text = squeeze(page_text(html))
    for words in PAGE[language]:
        assert words in text
    for words in PAGE_EN:
        assert words not in text
    assert f"Vegas #{game.pk}" in text  # names and the notation stay as they are


@pytest.mark.django_db
def test_the_board_page_follows_the_language_cookie(
    client: Any, make_user: Callable[..., Any], make_game: Callable[..., Any]
) -> None:
    ada = make_user("ada")
    game = make_game(ada, make_user("bob"))
    client.force_login(ada)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    text = squeeze(page_text(client.get(f"/games/{game.pk}/").content.decode()))
    assert "Tabellone" in text and "Board" not in text


@pytest.mark.django_db
def test_without_a_language_asked_for_the_page_is_in_english(
    client: Any, make_user: Callable[..., Any], make_game: Callable[..., Any]
) -> None:
    ada = make_user("ada")
    game = make_game(ada, make_user("bob"))
    client.force_login(ada)
    text = squeeze(page_text(client.get(f"/games/{game.pk}/").content.decode()))
    for words in PAGE_EN:
        assert words in text


@pytest.mark.django_db
def test_the_saved_language_alone_reaches_the_web_pages(
    client: Any, make_user: Callable[..., Any], make_game: Callable[..., Any]
) -> None:
    ada = make_user("ada", language="fr")
    game = make_game(ada, make_user("bob"))
    client.force_login(ada)
    text = squeeze(page_text(client.get(f"/games/{game.pk}/").content.decode()))
    assert "Plateau" in text


# -- the game emails --------------------------------------------------------------------------


def _bodies(message: Any) -> tuple[str, str]:
    html = next(content for content, mimetype in message.alternatives if mimetype == "text/html")
    return squeeze(str(message.body)), squeeze(str(html))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_email_is_in_the_players_language(
    make_user: Callable[..., Any], make_game: Callable[..., Any], language: str
) -> None:
    ada = make_user("ada", language=language)
    bob = make_user("bob", language=language)
    game = make_game(ada, bob)
    mail.outbox.clear()
    assert notify_game(game_id=game.pk) == 1
    [message] = mail.outbox
    subject, sentences = TURN[language]
    assert message.subject.startswith(f"[Lords #{game.pk}] ")
    assert subject in squeeze(str(message.subject))
    text, html = _bodies(message)
    for body in (text, html):
        for words in sentences:
            assert words in body
        for words in TURN_EN:
            assert words not in body
    # the commands, in the words of the player's language the parser reads (one line)
    verb = {"fr": "placer", "it": "piazza"}[language]
    assert re.search(rf"^  {verb} \d(\|\d)*$", str(message.body), re.MULTILINE)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_over_email_is_in_the_players_language(
    make_user: Callable[..., Any], make_game: Callable[..., Any], language: str
) -> None:
    ada = make_user("ada", language=language)
    bob = make_user("bob", language="en")
    game = make_game(ada, bob, bots=1)
    play(game, None)
    assert game.status == Game.Status.FINISHED
    mail.outbox.clear()
    assert notify_game(game_id=game.pk) == 2
    by_to = {m.to[0]: m for m in mail.outbox}
    subject, sentences = OVER[language]
    assert subject in squeeze(str(by_to[ada.email].subject))
    text, html = _bodies(by_to[ada.email])
    for body in (text, html):
        for words in sentences:
            assert words in body
    english = by_to[bob.email]  # each recipient in their own language
    assert "Game over — Vegas with" in squeeze(str(english.subject))
    assert f"Vegas #{game.pk} is over." in str(english.body)


# -- the catalogs ------------------------------------------------------------------------------


@dataclass
class Entry:
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0


def _unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), text
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], text[1:-1])


def parse_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header included, obsolete ``#~`` ones left out)."""
    entries: list[Entry] = []
    entry: Entry | None = None
    key = ""
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if not line.strip() or line.startswith("#~"):
            if entry is not None:
                entries.append(entry)
                entry = None
            continue
        if entry is None:
            entry = Entry(line=number)
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            value = _unquote(line)
            if key == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + value
            elif key == "msgid":
                entry.msgid += value
            elif key == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + value
            else:
                index = int(key[7:-1]) if key.startswith("msgstr[") else 0
                entry.msgstr[index] += value
        else:
            key, value = line.split(" ", 1)
            if key == "msgctxt":
                entry.msgctxt = _unquote(value)
            elif key == "msgid":
                entry.msgid = _unquote(value)
            elif key == "msgid_plural":
                entry.msgid_plural = _unquote(value)
            elif key == "msgstr" or key.startswith("msgstr["):
                index = int(key[7:-1]) if key.startswith("msgstr[") else 0
                entry.msgstr[index] = _unquote(value)
            else:
                raise AssertionError(f"{path}:{number}: unexpected {line!r}")
    return entries


PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]|\{\{\s*\w+\s*\}\}|\{\w*\}")


def placeholders(text: str) -> list[str]:
    return sorted(match.group(0) for match in PLACEHOLDER.finditer(text))


def _catalog(language: str) -> tuple[Entry, list[Entry]]:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path} is missing: run makemessages"
    header, *entries = parse_po(path)
    assert header.msgid == "", "the header comes first"
    return header, entries


def _plural_form_fits(entry: Entry, translated: str) -> bool:
    """A plural entry's form names only values the code passes (those of the English
    plural) and leaves out at most one of them: the number ("un parking")."""
    assert entry.msgid_plural is not None
    named = set(placeholders(translated))
    passed = set(placeholders(entry.msgid_plural))
    return named <= passed and len(named) >= len(passed) - 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_keeps_its_placeholders(language: str) -> None:
    header, entries = _catalog(language)
    assert "fuzzy" not in header.flags
    assert f"Language: {language}\n" in header.msgstr[0]
    plural_forms = re.search(r"nplurals=(\d+)", header.msgstr[0])
    assert plural_forms, "the header names its plural forms"
    nplurals = int(plural_forms.group(1))
    assert len(entries) > 100
    problems = []
    for entry in entries:
        where = f"{language} line {entry.line} {entry.msgid!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"{where}: fuzzy")
        if entry.msgid_plural is None:
            expected_forms = {0: placeholders(entry.msgid)}
        else:
            # The code passes the plural's values to every form; a form may leave out the
            # number ("one parking lot") but must name nothing the code does not pass.
            assert set(placeholders(entry.msgid)) <= set(placeholders(entry.msgid_plural)), where
            expected_forms = dict.fromkeys(range(nplurals), placeholders(entry.msgid_plural))
        if sorted(entry.msgstr) != sorted(expected_forms):
            problems.append(f"{where}: forms {sorted(entry.msgstr)}, expected {nplurals}")
            continue
        for index, expected in expected_forms.items():
            translated = entry.msgstr[index]
            if not translated.strip():
                problems.append(f"{where}: msgstr[{index}] is empty")
            elif entry.msgid_plural is not None and _plural_form_fits(entry, translated):
                continue
            elif placeholders(translated) != expected:
                problems.append(
                    f"{where}: msgstr[{index}] has {placeholders(translated)}, "
                    f"the original {expected}"
                )
            elif translated.endswith("\n") != entry.msgid.endswith("\n"):
                problems.append(f"{where}: msgstr[{index}] and msgid differ on the final \\n")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_the_current_one(language: str) -> None:
    """The committed .mo says what the .po says (run compilemessages after an edit)."""
    _, entries = _catalog(language)
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for entry in entries:
        if entry.msgid_plural is None:
            if entry.msgctxt is not None:
                got = compiled.pgettext(entry.msgctxt, entry.msgid)
            else:
                got = compiled.gettext(entry.msgid)
            if got != entry.msgstr[0]:
                stale.append(entry.msgid)
        else:
            for count in (1, 2, 5):
                if entry.msgctxt is not None:
                    got = compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, count)
                else:
                    got = compiled.ngettext(entry.msgid, entry.msgid_plural, count)
                # (not compiled, gettext answers the English: a form the catalogue lacks,
                # unless a language writes it as English does, French "%(n)s cycles")
                if got not in entry.msgstr.values():
                    stale.append(entry.msgid)
                    break
    assert not stale, "compile the catalogs again: " + ", ".join(map(repr, stale))


_TRANSLATE_TAG = re.compile(r"""\{%\s*translate\s+(?:"([^"]*)"|'([^']*)')""")
_GETTEXT_CALL = re.compile(r"""\b_\(\s*"((?:[^"\\]|\\.)*)"\s*\)""")
_SOURCES = ("accounts", "games", "leagues", "lords", "notifications", "templates")


def test_every_simple_string_of_the_code_is_in_the_catalogs() -> None:
    """A cheap check that makemessages ran after the last change of a ``{% translate %}``
    or a one-line ``_("...")`` (blocktranslate and the rest need gettext itself)."""
    wanted: set[str] = set()
    for folder in _SOURCES:
        for path in (ROOT / folder).rglob("*"):
            if "migrations" in path.parts or not path.is_file():
                continue
            if path.suffix in {".html", ".txt"}:
                for match in _TRANSLATE_TAG.finditer(path.read_text(encoding="utf-8")):
                    wanted.add(match.group(1) if match.group(1) is not None else match.group(2))
            elif path.suffix == ".py":
                source = path.read_text(encoding="utf-8")
                if "gettext" in source:
                    wanted |= {_unquote(f'"{m}"') for m in _GETTEXT_CALL.findall(source)}
    assert len(wanted) > 50
    for language in LANGUAGES:
        _, entries = _catalog(language)
        known = {entry.msgid for entry in entries}
        missing = sorted(wanted - known)
        assert not missing, f"{language}: run makemessages and translate: {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_django_reads_the_catalog(language: str) -> None:
    with translation.override(language):
        assert translation.gettext("Recent moves") != "Recent moves"
        one = translation.ngettext("%(n)s missed turn", "%(n)s missed turns", 1) % {"n": 1}
        two = translation.ngettext("%(n)s missed turn", "%(n)s missed turns", 2) % {"n": 2}
    assert one.startswith("1 ") and two.startswith("2 ") and one != two


@pytest.mark.django_db
def test_a_new_player_starts_in_the_language_their_browser_asks_for(client: Any) -> None:
    email = f"zoe-{uuid.uuid4().hex[:12]}@example.org"  # (allauth's limits: per address)
    response = client.post(
        "/accounts/signup/",
        {
            "email": email,
            "password1": "a-long-passphrase-1",
            "password2": "a-long-passphrase-1",
            "display_name": "Zoe",
        },
        headers={"accept-language": "it"},
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(email=email).language == "it"


@pytest.mark.parametrize("language", ["fr", "it"])
def test_an_unknown_company_s_refusal_lists_words_the_notation_reads(language: str) -> None:
    """The French and Italian refusals listed the English company words only, though the
    notation reads the reader's own ('gris', 'argento'): each word they list now is read."""
    from games.engines.base import MalformedCommand
    from games.engines.lords_of_vegas.notation import COMPANY_WORDS
    from games.engines.registry import get_engine

    engine = get_engine("lords-of-vegas")
    with translation.override(language):
        with pytest.raises(MalformedCommand) as refused:
            engine.parse("build A2 nothing")
        said = str(refused.value)  # (said in the reader's language: inside the override)
    listed = re.search(r"\(([^()]*)\)\s*$", said)
    assert listed is not None, said
    words = [w.strip() for group in listed.group(1).split(",") for w in group.split("|")]
    assert len(words) >= 10 and all(w in COMPANY_WORDS for w in words), words
    assert {"or", "oro"} & set(words), words  # (the English list alone passed before)


@pytest.mark.parametrize("language", ["fr", "it"])
@pytest.mark.parametrize("edition", ["2024", "classic", None])
def test_an_unknown_verb_s_refusal_lists_the_readers_verbs(
    language: str, edition: str | None
) -> None:
    """The refusal of an unknown command listed the English verbs to a French or Italian
    player, who types ``construire``, ``costruisci``: it lists the reader's words, each one
    the notation reads as the verb it stands for, the edition's verbs in the English list's
    order."""
    from games.engines.base import MalformedCommand
    from games.engines.lords_of_vegas.notation import VERB_OF, _plain, known_verbs, parse

    english = str(known_verbs(edition)).split(", ")
    with translation.override(language):
        with pytest.raises(MalformedCommand) as refused:
            parse("voler A2", edition=edition)
        said = str(refused.value)
    listed = re.search(r"\(([^()]*)\)\s*$", said)
    assert listed is not None, said
    words = listed.group(1).split(":", 1)[1].strip().split(", ")
    assert [VERB_OF.get(_plain(w)) for w in words] == english, words
    assert words != english
