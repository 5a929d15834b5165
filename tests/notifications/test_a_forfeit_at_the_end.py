"""The game-over email of a game a forfeit ended, or that a forfeited seat's bot played to
the end: it says the player forfeited (not "resigned"), that the forfeit ended the game or
that a bot played the seat (not that one "plays" it on), and its board prompts nobody.

Found by play-testing: in a two-player game where Bob missed three deadlines in a row, his
result read "2. Bob (you) — resigned", "you forfeited, and a bot plays your seat to the
end", "Bob ... forfeited: a bot plays the seat on", and the board ended on "Blue rolled 3 5
5 5 6 6. Place one number: 3, 5, 6 (e.g. 'place 3')."."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, Seat
from games.services.timeouts import apply_timeout
from notifications.services import notify_game
from tests.notifications.conftest import html_part, play, text_part

pytestmark = pytest.mark.django_db

# What a game-over email must not say any more, in each language (the catalogs' words).
STILL_PLAYING = {
    "en": ["a bot plays your seat", "a bot plays the seat on"],
    "fr": ["un bot joue à ta place", "un bot joue à sa place"],
    "it": ["un bot gioca al tuo posto", "un bot continua a giocare"],
}
RESIGNED = {"en": "— resigned", "fr": "— a abandonné", "it": "— ha abbandonato"}
PROMPTS = {  # a Vegas roll to place, Lords of Vegas's turn marker
    "en": ["Place one number", "<- turn"],
    "fr": ["Place un nombre", "<- à jouer"],
    "it": ["Piazza un numero", "<- turno"],
}


def _miss_every_deadline(game: Game, late: Seat) -> None:
    """The others play; ``late``'s every deadline passes, until the game is over."""
    for _step in range(500):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        if Seat.objects.get(pk=late.pk).to_act:
            now = timezone.now()
            Game.objects.filter(pk=game.pk).update(deadline=now - timedelta(minutes=1))
            assert apply_timeout(game=game.pk, now=now).applied
        else:
            play(game, 1)
    raise AssertionError("the game did not end")


def _game_over(smtp: Any, address: str) -> EmailMessage:
    [message] = [m for m in smtp.messages if m["To"] == address]
    return message


@pytest.mark.parametrize("language", ["en", "fr", "it"])
@pytest.mark.parametrize("game_type", ["vegas", "lords-of-vegas"])
def test_a_forfeit_that_ends_a_two_player_game_is_said_as_one(
    make_user, make_game, smtp, language, game_type
):
    ada = make_user("ada", language=language)
    bob = make_user("bob", language=language)
    game = make_game(ada, bob, game_type=game_type)
    Game.objects.filter(pk=game.pk).update(max_timeouts=3)
    late = game.seats.get(user=bob)

    _miss_every_deadline(game, late)
    notify_game(game_id=game.pk)
    smtp.wait_for(2)

    for message in (_game_over(smtp, bob.email), _game_over(smtp, ada.email)):
        for part in (text_part(message), html_part(message)):
            assert RESIGNED[language] not in part, part
            for said in STILL_PLAYING[language] + PROMPTS[language]:
                assert said not in part, (said, part)
    if language != "en":
        return  # (the new sentences are checked in English: the catalogs follow)
    told = text_part(_game_over(smtp, bob.email))
    assert "  2. bob (you) — forfeited (missed deadlines)" in told, told
    assert "That was 3 missed deadlines in a row: you forfeited, and that ended the game." in told
    assert "  - You missed 3 deadlines in a row and forfeited, which ended the game." in told
    others = text_part(_game_over(smtp, ada.email))
    assert "  2. bob — forfeited (missed deadlines)" in others, others
    assert "  - bob missed 3 deadlines in a row and forfeited, which ended the game." in others
    assert '<li value="2">bob — forfeited (missed deadlines)</li>' in html_part(
        _game_over(smtp, ada.email)
    )
    if game_type == "lords-of-vegas":
        assert "The game is over." in others  # (its board, as the game stopped)


def test_a_forfeited_seat_a_bot_played_to_the_end_is_said_in_the_past(
    make_game, ada, bob, cy, smtp
):
    """Three players: Cy forfeits, a bot plays the seat on, the others finish the game.
    Cy's result says the bot played the seat to the end; the others' say he forfeited."""
    game = make_game(ada, bob, cy)
    Game.objects.filter(pk=game.pk).update(max_timeouts=1)
    late = game.seats.get(user=cy)
    while not Seat.objects.get(pk=late.pk).to_act:
        play(game, 1)
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(deadline=now - timedelta(minutes=1))
    assert apply_timeout(game=game.pk, now=now).applied
    assert Seat.objects.get(pk=late.pk).resigned
    play(game)  # to the end
    assert game.status == Game.Status.FINISHED
    assert game.outcome.get("ended_by") != "resignation"

    notify_game(game_id=game.pk)
    smtp.wait_for(3)

    told = text_part(_game_over(smtp, cy.email))
    assert "— forfeited (missed deadlines)" in told, told
    assert "you forfeited, and a bot played your seat to the end." in told, told
    assert "a bot plays your seat" not in told
    others = text_part(_game_over(smtp, ada.email))
    assert "cy — forfeited (missed deadlines)" in others, others
