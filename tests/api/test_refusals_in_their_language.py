"""The service refusals reach an API client in the language it reads (``Accept-Language``,
else the saved language), worded when raised; the machine-readable ``code`` beside the
message never changes with the language. So do the refusals of the API's own checks (the
shape of a body, a header, an id that names nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from knox.models import AuthToken

from accounts.models import User
from games.models import Webhook
from leagues import services as leagues
from tests.api.helpers import API, Player, assert_error, body, move_count, start_game

pytestmark = pytest.mark.django_db

FRENCH = {
    "not_your_turn": "pas au tien",
    "stale_version": "la partie a avancé : tu as envoyé la version ",
    "malformed_command": "commande 2 sur 2 : ",
    "not_found": "il n'y a pas de partie #999999",
}
ITALIAN = {
    "not_your_turn": "non il tuo",
    "stale_version": "la partita è andata avanti: hai inviato la versione ",
    "malformed_command": "comando 2 di 2: ",
    "not_found": "non esiste la partita #999999",
}


def _waiting_and_other(game: int, *players: Player) -> tuple[Player, Player]:
    for player in players:
        if body(player.get(f"/games/{game}/"))["your_turn"]:
            return player, next(p for p in players if p is not player)
    raise AssertionError("the game waits on nobody")


def _refusals(game: int, mover: Player, other: Player, **headers: Any) -> dict[str, str]:
    """The message of each refusal, by its code (asserting the code and status)."""
    moves = f"/games/{game}/moves/"
    version = body(mover.get(f"/games/{game}/"))["version"]
    stale = {"command": "place 1", "expected_version": version + 1000}
    return {
        "not_your_turn": assert_error(
            other.post(moves, {"command": "place 1"}, **headers), 409, "not_your_turn"
        )["message"],
        "stale_version": assert_error(mover.post(moves, stale, **headers), 409, "stale_version")[
            "message"
        ],
        "malformed_command": assert_error(
            mover.post(moves, {"command": "place 1\nfly to the moon"}, **headers),
            400,
            "malformed_command",
        )["message"],
        "not_found": assert_error(
            mover.post("/games/999999/moves/", {"command": "place 1"}, **headers),
            404,
            "not_found",
        )["message"],
    }


@pytest.mark.parametrize(
    ("language", "expected"), [("fr", FRENCH), ("it", ITALIAN)], ids=["fr", "it"]
)
def test_refusals_follow_accept_language_and_keep_their_codes(
    alice: Player, bob: Player, language: str, expected: dict[str, str]
) -> None:
    game = start_game(alice, [bob], "vegas")
    mover, other = _waiting_and_other(game, alice, bob)
    before = move_count(game)
    english = _refusals(game, mover, other)
    translated = _refusals(game, mover, other, HTTP_ACCEPT_LANGUAGE=language)
    assert move_count(game) == before
    for code, words in expected.items():
        assert words in translated[code], (code, translated[code])
        assert translated[code] != english[code]
    assert "not yours" in english["not_your_turn"]
    assert "command 2 of 2: " in english["malformed_command"]
    assert english["not_found"] == "there is no game #999999"


def test_the_saved_language_words_a_refusal_without_accept_language(
    alice: Player, bob: Player
) -> None:
    game = start_game(alice, [bob], "vegas")
    mover, other = _waiting_and_other(game, alice, bob)
    other.user.language = "it"
    other.user.save(update_fields=["language"])
    error = assert_error(
        other.post(f"/games/{game}/moves/", {"command": "place 1"}), 409, "not_your_turn"
    )
    assert "è il turno di" in error["message"] and mover.user.display_name in error["message"]


@pytest.mark.parametrize(
    ("language", "unsigned", "nowhere"),
    [
        ("fr", "Il faut t'authentifier", "L'API n'a pas d'adresse /api/v1/nowhere"),
        ("it", "Serve l'autenticazione", "L'API non ha un indirizzo /api/v1/nowhere"),
        ("en", "Authentication is required", "There is no API endpoint at /api/v1/nowhere"),
    ],
)
def test_the_transport_refusals_are_in_the_language_asked_for(
    language: str, unsigned: str, nowhere: str
) -> None:
    """What the API says before any game is involved (no token, no such address) is in
    the reader's language too, its code unchanged."""
    from rest_framework.test import APIClient

    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    error = assert_error(client.get("/api/v1/games/"), 401, "not_authenticated")
    assert error["message"].startswith(unsigned), error
    error = assert_error(client.get("/api/v1/nowhere"), 404, "not_found")
    assert error["message"].startswith(nowhere), error
    assert error["message"].endswith(".") and "/" in error["message"]


# -- the API's own checks: the shape of a request, before any service ----------------------

NB = "\u00a0"
BAD_INPUT = {  # what each refusal says, in French and in Italian (a phrase of it)
    "a list for a body": ("doit être un objet JSON", "deve essere un oggetto JSON"),
    "text for a body": ("doit être un objet JSON", "deve essere un oggetto JSON"),
    "null for a body": ("doit être un objet JSON", "deve essere un oggetto JSON"),
    "a number for a command": ("Une commande est du texte", "Un comando è un testo"),
    "an empty list for a command": ("Une commande est du texte", "Un comando è un testo"),
    "an empty command": (f"La commande est vide{NB}: écris-en une", "Il comando è vuoto"),
    "a long command": ("La commande dépasse 2000 caractères", "Il comando supera i 2000"),
    "a NUL in a command": ("Le texte ne peut contenir", "Il testo non può contenere"),
    "too many values": ("Au plus 2000 valeurs", "Al massimo 2000 valori"),
    "too deep a command": ("Imbriqué sur plus de 12 niveaux", "Annidato su più di 12 livelli"),
    "an empty key": ("caractères imprimables", "caratteri stampabili"),
    "a long key": ("caractères imprimables", "caratteri stampabili"),
    "junk in If-Match": ("Envoie la version comme un ETag", "Invia la versione come ETag"),
    "two versions": ("mais expected_version indique 3", "ma expected_version indica 3"),
    "no such offer": ("n'a pas d'offre d'échange #9999", "non ha l'offerta di scambio #9999"),
    "a private game": ("est privée", "è privata"),
    "verified too soon": (
        f"est en cours{NB}: elle pourra être vérifiée",
        "è in corso: si potrà verificare",
    ),
    "no such webhook": ("tu n'as pas de webhook 9999", "non hai il webhook 9999"),
    "an ftp webhook": ("une adresse http ou https", "un indirizzo http o https"),
    "a sixth webhook": (f"au plus 5 webhooks{NB}; supprimes-en un", "al massimo 5 webhook;"),
    "no such token": (f"Tu n'as pas de jeton «{NB}nosuchkey{NB}»", "Non hai il token 'nosuchkey'"),
    "a word for last_event_id": ("un nombre entier", "un numero intero"),
    "a word for Last-Event-ID": ("l'id du dernier événement lu", "l'id dell'ultimo evento"),
    "no seconds": ("un nombre de secondes", "un numero di secondi"),
    "no such league": (f"il n'y a pas de ligue «{NB}nope{NB}»", "non esiste la lega 'nope'"),
    "no such season": ("n'a pas de saison 99", "non ha la stagione 99"),
    "no such time zone": ("n'est pas un fuseau horaire", "non è un fuso orario"),
    "too large a body": ("au plus 2\u00a0621\u00a0440 octets", "al massimo 2.621.440 byte"),
}
"""(The 413's limit is grouped the reader's way: "2,621,440" is English.)"""


def _bad_requests(game: int, private: int, league: str, alice: Player, **headers: Any) -> dict:
    """Each refusal of :data:`BAD_INPUT`, its status and code asserted: its message."""
    moves = f"{API}/games/{game}/moves/"

    def raw(text: str, path: str = moves) -> Any:
        return alice.client.generic("POST", path, text, "application/json", **headers)

    def command(value: Any, **more: Any) -> Any:
        return alice.post(f"/games/{game}/moves/", {"command": value}, **headers, **more)

    deep: Any = {"type": "place", "number": 1}
    for _level in range(14):
        deep = {"type": "place", "inner": deep}
    for _hook in range(5):
        created = alice.post("/webhooks/", {"url": "https://example.org/hook"}, **headers)
        assert created.status_code == 201, created.content
    sent: dict[str, tuple[Any, int, str]] = {
        "a list for a body": (raw("[1, 2, 3]"), 400, "malformed_request"),
        "text for a body": (raw('"place 1"'), 400, "malformed_request"),
        "null for a body": (raw("null"), 400, "malformed_request"),
        "a number for a command": (command(5), 400, "invalid"),
        "an empty list for a command": (command([]), 400, "invalid"),
        "an empty command": (command(""), 400, "invalid"),
        "a long command": (command("x" * 5000), 400, "invalid"),
        "a NUL in a command": (command("place\u0000 1"), 400, "invalid"),
        "too many values": (command({"type": "place", "n": list(range(2001))}), 400, "invalid"),
        "too deep a command": (command(deep), 400, "invalid"),
        "an empty key": (command("place 1", HTTP_IDEMPOTENCY_KEY=""), 400, "invalid"),
        "a long key": (command("place 1", HTTP_IDEMPOTENCY_KEY="k" * 201), 400, "invalid"),
        "junk in If-Match": (command("place 1", HTTP_IF_MATCH='"junk"'), 400, "invalid"),
        "two versions": (
            alice.post(
                f"/games/{game}/moves/",
                {"command": "place 1", "expected_version": 3},
                HTTP_IF_MATCH='"4"',
                **headers,
            ),
            400,
            "invalid",
        ),
        "no such offer": (
            alice.post(f"/games/{game}/trades/9999/accept/", **headers),
            404,
            "not_found",
        ),
        "a private game": (alice.get(f"/games/{private}/", **headers), 403, "not_allowed"),
        "verified too soon": (
            alice.get(f"/games/{game}/verify/", **headers),
            409,
            "game_not_active",
        ),
        "no such webhook": (alice.delete("/webhooks/9999/", **headers), 404, "not_found"),
        "an ftp webhook": (
            alice.post("/webhooks/", {"url": "ftp://example.org/hook"}, **headers),
            400,
            "invalid",
        ),
        "a sixth webhook": (
            alice.post("/webhooks/", {"url": "https://example.org/sixth"}, **headers),
            400,
            "invalid",
        ),
        "no such token": (alice.delete("/tokens/nosuchkey/", **headers), 404, "not_found"),
        "a word for last_event_id": (
            alice.get("/events/", {"last_event_id": "abc"}, **headers),
            400,
            "invalid",
        ),
        "a word for Last-Event-ID": (
            alice.get("/events/", HTTP_LAST_EVENT_ID="xyz", **headers),
            400,
            "invalid",
        ),
        "no seconds": (alice.get("/events/", {"seconds": "0"}, **headers), 400, "invalid"),
        "no such league": (alice.get("/leagues/nope/", **headers), 404, "not_found"),
        "no such season": (
            alice.get(f"/leagues/{league}/standings/", {"season": 99}, **headers),
            404,
            "not_found",
        ),
        "no such time zone": (
            alice.patch("/me/", {"time_zone": "Mars/Olympus"}, **headers),
            400,
            "invalid",
        ),
        "too large a body": (raw('{"command": "' + "x" * 3_000_000 + '"}'), 413, "too_large"),
    }
    return {
        what: assert_error(response, status, code)["message"]
        for what, (response, status, code) in sent.items()
    }


@pytest.mark.parametrize(("language", "index"), [("fr", 0), ("it", 1)], ids=["fr", "it"])
def test_a_bad_request_is_refused_in_the_language_asked_for_and_changes_nothing(
    alice: Player, bob: Player, carol: Player, language: str, index: int
) -> None:
    """What the API's own checks refuse (a body's shape, a header, an id no one has) is said
    in the reader's language, as the services' refusals are; and nothing is written."""
    game = start_game(alice, [bob], "vegas")
    private = body(carol.post("/games/", {"game_type": "vegas", "private": True}))["id"]
    league = leagues.create_league(creator=carol.user, name="Tuesday", game_type="vegas").slug
    zone = User.objects.get(pk=alice.user.pk).time_zone
    moves, tokens = move_count(game), AuthToken.objects.filter(user=alice.user).count()

    said = _bad_requests(game, private, league, alice, HTTP_ACCEPT_LANGUAGE=language)

    untranslated = {
        what: said[what] for what, words in BAD_INPUT.items() if words[index] not in said[what]
    }
    assert not untranslated, untranslated
    assert move_count(game) == moves
    assert AuthToken.objects.filter(user=alice.user).count() == tokens
    assert Webhook.objects.filter(user=alice.user).count() == 5  # the five made to fill up
    assert User.objects.get(pk=alice.user.pk).time_zone == zone


def test_an_unknown_address_is_said_in_the_tokens_players_language(alice: Player) -> None:
    """Found by fuzzing: the 404 of an unknown address was English for a French player's
    script (no view ran to read the token)."""
    alice.user.language = "fr"
    alice.user.save(update_fields=["language"])
    error = assert_error(alice.get("/nowhere/"), 404, "not_found")
    assert error["message"].startswith("L'API n'a pas d'adresse /api/v1/nowhere/"), error
