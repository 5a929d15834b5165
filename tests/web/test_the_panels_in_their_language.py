"""The players and result panels in the reader's language: places ("1st", "1er", "1°"),
each count with its own plural, a Vegas result as money and the notes it is in."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games import services
from games.web import present
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [("en", "1st ada", "2nd bob"), ("fr", "1er ada", "2e bob"), ("it", "1° ada", "2° bob")],
)
def test_the_places_of_the_result_read_right_in_each_language(
    client: Any, ada: Any, bob: Any, make_game: Any, language: str, first: str, second: str
) -> None:
    """The Italian page said "1esimo ada" (Django's ordinal in Italian)."""
    game = make_game(ada, bob, game_type="vegas")
    services.resign(game=game, user=bob)
    ada.language = language
    ada.save(update_fields=["language"])
    client.force_login(ada)
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f" {first} {second} " in text
    assert "esimo" not in text


def _game(game_type: str, shown: dict[str, Any]) -> dict[str, Any]:
    seat = {"order": 0, "colour": "red", "name": "Ada"}
    return {
        "game_type": game_type,
        "view": {"players": [{"seat": 0, **shown}]} if "score" in shown else {"seats": [shown]},
        "seats": [seat],
        "your_seat": 0,
    }


@pytest.mark.parametrize(
    ("language", "lords", "vegas"),
    [
        ("en", "1 die, 7 lot markers left", "1 die + 2 white in hand, 1 note"),
        (
            "fr",
            "en réserve\u00a0: 1 dé, 7 marqueurs de propriété",
            "1 dé + 2 blancs en main, 1 billet",
        ),
        ("it", "restano 1 dado e 7 segnalini", "1 dado + 2 bianchi in mano, 1 banconota"),
    ],
)
def test_each_count_on_the_players_panel_has_its_own_plural(
    language: str, lords: str, vegas: str
) -> None:
    """The Italian panel said "restano 1 dadi e 7 segnalini": one plural for two counts."""
    lords_seat = {"score": 3, "money": 12, "dice_left": 1, "markers_left": 7}
    vegas_seat = {"seat": 0, "dice": 1, "white": 2, "notes": 1, "money": 50000}
    with translation.override(language):
        assert present.seats(_game("lords-of-vegas", lords_seat))[0]["detail"] == lords
        assert present.seats(_game("vegas", vegas_seat))[0]["detail"] == vegas


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "$470,000 (7 notes)"), ("fr", "(7 billets)"), ("it", "$470.000 (7 banconote)")],
)
def test_a_vegas_result_is_the_money_and_the_notes_it_is_in(language: str, said: str) -> None:
    """It read like a sum: "Ada — $470.000 + 7 banconote"."""
    game = _game("vegas", {"seat": 0, "dice": 0, "white": 0, "notes": 7, "money": 470000})
    game["outcome"] = {"placings": [{"rank": 1, "seat": 0, "money": 470000, "notes": 7}]}
    with translation.override(language):
        (row,) = present.placings(game)
    assert row["detail"].endswith(said) and "+" not in row["detail"], row["detail"]


@pytest.mark.parametrize(
    ("language", "own", "white", "said"),
    [
        ("en", [], [3], "1 white die on casino 3"),
        ("en", [3, 3], [3, 3], "2 dice + 2 white dice on casino 3"),
        ("fr", [], [3], "1 dé blanc sur le casino 3"),
        ("fr", [3], [3, 3], "1 dé + 2 dés blancs sur le casino 3"),
        ("it", [], [3], "1 dado bianco sul casinò 3"),
    ],
)
def test_a_place_button_says_what_goes_where(
    language: str, own: list[int], white: list[int], said: str
) -> None:
    """A Vegas place button with only neutral dice said "0 dé + 1 blanc(s)" (found by
    play-testing)."""
    with translation.override(language):
        assert present._placing_label({"roll": {"own": own, "white": white}}, 3) == said
