"""The service refusals reach an API client in the language it reads (``Accept-Language``,
else the saved language), worded when raised; the machine-readable ``code`` beside the
message never changes with the language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import Player, assert_error, body, move_count, start_game

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
