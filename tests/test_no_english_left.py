"""Every kind of page and email, in French and in Italian, holds no English word of the
engines' own vocabulary (issue 9): the log, refusals, colours, boards, statuses and
placings are said in the reader's language, whichever door shows them.

The vocabulary is drawn from the engines' message ids (``_("...")`` and ``ngettext(...)``
in ``games/engines``), less what legitimately stays as it is: the notation (commands are
shown as they are typed), proper names, and the words a language shares with English (any
word its own catalog uses, such as "casino" or "points"). A word found is reported with its
surroundings, so a failure says where the English is."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games import services
from games.engines.registry import get_engine
from games.models import Game, TradeOffer
from notifications import services as notifications
from notifications.models import Notification
from tests.notifications import conftest as mail_fixtures
from tests.notifications.conftest import deliver, play, reply_to
from tests.test_translations import parse_po
from tests.web.helpers import page_text

ROOT = Path(__file__).resolve().parent.parent
smtp = mail_fixtures.smtp  # the real SMTP server of the mail tests
LANGUAGES = ("fr", "it")
PROPER = {"Albion", "Sphinx", "Vega", "Tivoli", "Pioneer", "Lords", "Vegas", "Strip", "Ada"}
PROPER |= {"Bob", "Cy", "Dee", "Lovelace", "API", "JSON"}


def _msgids() -> Iterable[str]:
    for path in (ROOT / "games" / "engines").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("_", "ngettext"):
                continue
            for arg in node.args[:2]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def _words(text: str) -> set[str]:
    text = re.sub(r"%\(\w+\)[sd]", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


@cache
def _notation() -> set[str]:
    """The words of the notation: every command of many positions of both games, as the
    engines format them (they stay English in every language, as typed)."""
    from games.engines.rng import SeededRng

    words: set[str] = set()
    for slug in ("vegas", "lords-of-vegas"):
        engine = get_engine(slug)
        state, _events = engine.new_game(3, {}, "ab" * 16)
        rng = SeededRng("cd" * 16, "notation")
        for _step in range(300):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            legal = engine.legal_commands(state, seat)
            for command in legal[:200]:
                words |= _words(engine.format(command))
            state, _events = engine.apply(state, seat, legal[rng.randbelow(len(legal))])
    notation = ROOT / "games" / "engines" / "lords_of_vegas" / "notation.py"
    words |= _words(" ".join(re.findall(r'"([a-z]+)"', notation.read_text(encoding="utf-8"))))
    return words


@cache
def english(language: str) -> frozenset[str]:
    """The engines' English words a reader of ``language`` must not meet."""
    vocabulary: set[str] = set()
    for msgid in _msgids():
        vocabulary |= _words(msgid)
    shared: set[str] = set()
    for entry in parse_po(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"):
        for text in entry.msgstr.values():
            shared |= _words(text)
    proper = {w.lower() for w in PROPER}
    return frozenset(vocabulary - shared - _notation() - proper)


def english_in(text: str, language: str) -> list[str]:
    """Each English word found, with what surrounds it. Addresses are not words: a signed
    token in a link (``/unsubscribe/605:…9cAN5D…``) once read as "can"."""
    found = []
    banned = english(language)
    text = re.sub(r"\bhttps?://\S+", " ", text)
    for match in re.finditer(r"(?<![A-Za-z0-9])[A-Za-z]{3,}(?![A-Za-z0-9])", text):
        if match.group().lower() in banned:
            start, end = max(0, match.start() - 40), match.end() + 40
            found.append(f"{match.group()!r} in …{text[start:end]}…")
    return found


def prose(html: str) -> str:
    """What a page says in words: its text without the notation it quotes in ``<code>``
    (commands and trade offers are shown as they are typed, in English words)."""
    html = re.sub(r"<code[^>]*>.*?</code>", " ", html, flags=re.DOTALL)
    # Time zones are named as the IANA database names them ("Australia/ACT"), in any language.
    html = re.sub(r'<select name="time_zone".*?</select>', " ", html, flags=re.DOTALL)
    return page_text(html)


def _assert_no_english(where: str, text: str, language: str) -> None:
    found = english_in(text, language)
    assert not found, f"{language} {where}: English left:\n" + "\n".join(found[:30])


def test_a_link_s_token_is_not_english() -> None:
    """The detector itself: letters inside a link or glued to digits are no word (a CI run
    failed on "cAN" in an unsubscribe link's random token); a word in the prose still is."""
    token = "Voir http://testserver/accounts/unsubscribe/605:2sjtm-cAN-5DwpYV8JE/ ici"
    assert english_in(token, "fr") == []
    assert english_in("x9cAN5D", "fr") == []
    assert english_in("Tu can jouer", "fr") != []


# -- a table in every state ----------------------------------------------------------------


@pytest.fixture
def table(make_user: Callable[..., Any], make_game: Callable[..., Any], language: str) -> Any:
    """Ada, Bob and Cy reading ``language``: a Lords of Vegas game well under way with a
    trade offer open, a classic Lords of Vegas game waiting on a boss's lay-off decision, a
    Vegas game under way, and a finished Vegas game."""
    ada, bob, cy = (make_user(n, language=language) for n in ("ada", "bob", "cy"))
    lords = make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)
    engine = get_engine("lords-of-vegas")
    for _step in range(40):  # a few turns each: builds, sprawls, scores, draws
        lords.refresh_from_db()
        seat = lords.seats.select_related("user").get(order=engine.to_act(lords.state)[0])
        legal = engine.legal_commands(lords.state, seat.order)
        built = [c for c in legal if engine.format(c).startswith(("build", "sprawl"))]
        text = engine.format((built or legal)[0])
        services.submit_command(game=lords.pk, user=seat.user, text=text)
    lords.refresh_from_db()
    payer, payee = lords.seats.get(user=ada), lords.seats.get(user=bob)
    services.propose_trade(game=lords, user=ada, text=f"trade {payer.colour} pays {payee.colour} 1")
    classic = {"edition": "classic"}
    decision = _waiting_on_a_layoff(
        make_game(ada, bob, game_type="lords-of-vegas", options=classic)
    )
    vegas = make_game(ada, bob, bots=1)
    play(vegas, 3)
    over = make_game(ada, bob, bots=1)
    play(over, None)
    assert over.status == Game.Status.FINISHED
    assert TradeOffer.objects.filter(game=lords, status="open").exists()
    return {
        "users": (ada, bob, cy),
        "lords": lords,
        "decision": decision,
        "vegas": vegas,
        "over": over,
    }


def _waiting_on_a_layoff(game: Game) -> Game:
    """Played through the services until a boss is asked whether to lay off half of a bet
    (classic edition): both players ask to decide their lay-offs, then each gambles at the
    other's casino as soon as there is one, and builds until then."""
    engine = get_engine("lords-of-vegas")
    for seat in game.seats.select_related("user"):
        services.submit_command(game=game.pk, user=seat.user, text="prefer layoff ask")
    for _step in range(60):
        game.refresh_from_db()
        assert game.state is not None
        if any(d["kind"] == "layoff" for d in game.state["pending"]):
            return game
        seat = game.seats.select_related("user").get(order=engine.to_act(game.state)[0])
        legal = [engine.format(c) for c in engine.legal_commands(game.state, seat.order)]
        chosen = next(
            (
                t
                for verbs in (("gamble",), ("build", "sprawl"), ("end",))
                for t in legal
                if t.startswith(verbs)
            ),
            legal[0],
        )
        services.submit_command(game=game.pk, user=seat.user, text=chosen)
    raise AssertionError("no lay-off decision came up")


def _open_a_trade(game: Game) -> None:
    """A player with money offers $1m to another (whoever has money)."""
    seats = list(game.seats.select_related("user").order_by("order"))
    assert game.state is not None
    money = game.state["money"]  # $m per seat
    payer = max(seats, key=lambda s: money[s.order])
    payee = next(s for s in seats if s != payer)
    services.propose_trade(
        game=game, user=payer.user, text=f"trade {payer.colour} pays {payee.colour} 1"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_speaks_english(client: Any, table: Any, language: str) -> None:
    ada, bob, _cy = table["users"]
    pages = ["/", "/games/", "/games/?game_type=lords-of-vegas", "/profile/", "/leagues/"]
    pages += ["/games/?game_type=vegas"]
    pages += [f"/games/{table['lords'].pk}/moves/{n}/" for n in (1, 12, 30)]  # the replay
    pages += [f"/games/{table['over'].pk}/moves/3/"]
    pages += [f"/games/{table[g].pk}/" for g in ("lords", "decision", "vegas", "over")]
    for user in (ada, bob):
        client.force_login(user)
        for url in pages:
            response = client.get(url)
            assert response.status_code == 200, url
            _assert_no_english(f"{url} as {user}", prose(response.content.decode()), language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_email_speaks_english(table: Any, language: str, smtp: Any) -> None:
    for key in ("lords", "vegas", "over"):
        Notification.objects.filter(game=table[key]).delete()
        notifications.notify_game(game_id=table[key].pk)
    vegas = table["vegas"]
    vegas.refresh_from_db()
    notifications.send_reminders(now=vegas.deadline - notifications.reminder_window(vegas) / 2)
    mail_sent = smtp.wait_for(4)
    turn = next(m for m in mail_sent if f"#{vegas.pk}]" in m["Subject"])
    vegas.refresh_from_db()
    engine = get_engine("vegas")
    seat = vegas.seats.get(user__email=turn["To"])
    legal = engine.format(engine.legal_commands(vegas.state, seat.order)[0])
    deliver(reply_to(turn, legal, signature=""))  # played
    deliver(reply_to(turn, "xyzzy 42", signature=""))  # refused (no word of ours in it)
    mail_sent = smtp.wait_for(len(mail_sent) + 2)
    kinds = {m["Subject"] for m in mail_sent}
    assert len(kinds) >= 5, kinds  # turn, reminder, game over, answer, refusal
    for message in mail_sent:
        parts = [str(p.get_content()) for p in message.walk() if not p.is_multipart()]
        body = page_text("\n".join([str(message["Subject"]), *parts]))
        _assert_no_english(f"email {message['Subject']!r}", body, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_api_refusal_speaks_english(
    make_user: Callable[..., Any], make_game: Callable[..., Any], language: str
) -> None:
    from rest_framework.test import APIClient

    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob)
    waiting = game.seats.get(to_act=True).user
    idle = bob if waiting == ada else ada
    api = APIClient(headers={"accept-language": language})
    api.force_authenticate(idle)
    tried = {
        "not your turn": api.post(f"/api/v1/games/{game.pk}/moves/", {"command": "place 1"}),
        "malformed": api.post(f"/api/v1/games/{game.pk}/moves/", {"command": "bild 3"}),
        "no such game": api.get("/api/v1/games/999999/"),
    }
    api.force_authenticate(waiting)
    tried["illegal"] = api.post(f"/api/v1/games/{game.pk}/moves/", {"command": "place 9"})
    tried["stale"] = api.post(
        f"/api/v1/games/{game.pk}/moves/", {"command": "place 1", "expected_version": 99}
    )
    for what, answer in tried.items():
        assert answer.status_code >= 400, what
        error = answer.json()["error"]
        assert error["code"], what  # the machine-readable code stays
        with translation.override(language):
            _assert_no_english(f"API {what}", str(error["message"]), language)
