"""French elides "de" and "que" before a player's name that starts with a vowel ("le tour
d'Ada"); other words, names and languages are left as written."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games.engines.text import Text
from games.services.naming import not_your_turn
from lords.elision import fit, starts_with_vowel

TURN = "%(player)s's turn begins."


def test_a_name_with_a_vowel_is_elided_in_french_only() -> None:
    with translation.override("fr"):
        assert str(Text(TURN, {"player": "Ada"})) == "Début du tour d'Ada."
        assert str(Text(TURN, {"player": "Émile"})) == "Début du tour d'Émile."
        assert str(Text(TURN, {"player": "Bob"})) == "Début du tour de Bob."
        assert str(Text(TURN, {"player": "Hugo"})) == "Début du tour de Hugo."
    with translation.override("it"):
        assert str(Text(TURN, {"player": "Ada"})) == "Inizia il turno di Ada."
    with translation.override("en"):
        assert str(Text(TURN, {"player": "Ada"})) == "Ada's turn begins."


def test_only_names_are_elided_not_lots_or_numbers() -> None:
    with translation.override("fr"):
        assert fit("de %(lot)s vers %(to)s", {"lot": "A5", "to": "B6"}) == "de %(lot)s vers %(to)s"
        assert fit("que %(player)s", {"player": "Ida"}) == "qu'%(player)s"
        assert fit("De %(who)s", {"who": "Ugo"}) == "D'%(who)s"


def test_a_refusal_written_by_the_platform_elides_too(make_game: Any, make_user: Any) -> None:
    ada, bob = make_user("ada", display_name="Ada"), make_user("bob", display_name="Bob")
    game = make_game(ada, bob, game_type="vegas")
    seats = list(game.seats.select_related("user").order_by("order"))
    for seat in seats:
        seat.colour = ""  # (a seat without a colour is named by its player alone)
    ada_seat = next(s for s in seats if s.user == ada)
    with translation.override("fr"):
        assert not_your_turn([ada_seat.order], seats, None) == "c'est au tour d'Ada, pas au tien"


@given(st.text(min_size=1, max_size=12))
def test_the_words_around_the_name_never_change_otherwise(name: str) -> None:
    with translation.override("fr"):
        written = str(Text(TURN, {"player": name}))
    if starts_with_vowel(name):
        assert written == f"Début du tour d'{name}."
    else:
        assert written == f"Début du tour de {name}."
