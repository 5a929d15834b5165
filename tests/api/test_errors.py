"""The one error shape for every source of error, and throttling."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from games import services
from games.engines import registry
from games.engines.base import IllegalCommand
from games.models import Move
from tests.api.helpers import API, Player, assert_error, start_game

pytestmark = pytest.mark.django_db


def test_users_are_throttled_with_the_error_shape(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "3/min"})
    for _ in range(3):
        assert alice.get("/me/").status_code == 200
    throttled = alice.get("/me/")
    error = assert_error(throttled, 429, "throttled")
    assert int(throttled.headers["Retry-After"]) > 0
    assert error["detail"]["retry_after"] == int(throttled.headers["Retry-After"])
    assert "try again" in error["message"]


def test_anonymous_callers_are_throttled(
    anonymous: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"user": "2/min", "anon": "2/min"})
    for _ in range(2):
        assert anonymous.get(f"{API}/game-types/").status_code == 200
    assert_error(anonymous.get(f"{API}/game-types/"), 429, "throttled")


def test_an_engine_error_that_escapes_is_a_400_not_a_500(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start_game(alice, [bob])

    def refuse(**kwargs: object) -> None:
        raise IllegalCommand("casino 9 does not exist")

    monkeypatch.setattr(services, "submit_command", refuse)
    response = alice.post(f"/games/{game}/moves/", {"command": "place 9"})
    error = assert_error(response, 400, "illegal_command")
    assert error["message"] == "casino 9 does not exist"


def test_an_engine_tripping_over_odd_input_is_a_400_not_a_500(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start_game(alice, [bob])
    engine = registry.get_engine("vegas")
    before = Move.objects.filter(game_id=game).count()

    real_view = engine.view
    # An engine function fed something it never expected fails inside the engine.
    monkeypatch.setattr(engine, "parse", lambda text, **options: real_view({}, 0))
    response = alice.post(f"/games/{game}/moves/", {"command": "place 4"})
    assert_error(response, 400, "unreadable_command")
    assert Move.objects.filter(game_id=game).count() == before


def test_a_bug_is_a_500_in_the_same_shape_without_internals(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(**kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(services, "create_game", crash)
    response = alice.post("/games/", {"game_type": "vegas"})
    error = assert_error(response, 500, "server_error")
    assert "secret" not in response.content.decode()
    assert error["detail"] == {}


def test_a_wrong_content_type_has_the_error_shape(alice: Player) -> None:
    response = alice.client.post(f"{API}/games/", data="game_type=vegas", content_type="text/csv")
    assert_error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    ("edition", "listed", "not_listed"),
    [("classic", "layoff", "raise"), ("2024", "raise", "layoff")],
)
def test_an_unknown_verb_is_answered_with_the_verbs_of_this_edition_only(
    alice: Player, bob: Player, edition: str, listed: str, not_listed: str
) -> None:
    """A classic game has no raise action and a 2024 game no lay-off: the refusal of a typo
    lists what the player can write in this game, not in the other edition."""
    game = start_game(alice, [bob], "lords-of-vegas", {"edition": edition})
    before = Move.objects.filter(game_id=game).count()
    response = alice.post(f"/games/{game}/moves/", {"command": "bild A2"})
    error = assert_error(response, 400, "malformed_command")
    verbs = error["message"].split("(commands: ", 1)[1].rstrip(")").split(", ")
    assert "'bild'" in error["message"]
    assert {"build", "gamble", "end", listed} <= set(verbs)
    assert not_listed not in verbs
    assert Move.objects.filter(game_id=game).count() == before
