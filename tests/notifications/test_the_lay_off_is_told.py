"""A classic game's start tells each player the lay-off is theirs to choose (decision
0042): the book gives the boss that choice before each bet at their casinos, and the
standing choice made for them until they say otherwise is "never"."""

from __future__ import annotations

from typing import Any

import pytest

from games import selectors, services
from games.models import Game, Seat
from tests.notifications.conftest import deliver, reply_to, text_part

pytestmark = pytest.mark.django_db(transaction=True)

TOLD = "The lay-off is yours to choose"


def _started(ada: Any, bob: Any, smtp: Any, edition: str) -> tuple[Game, list[Any]]:
    game = services.create_game(
        creator=ada, game_type="lords-of-vegas", seats=2, options={"edition": edition}
    )
    services.join_game(game=game, user=bob)
    joined = len(smtp.wait_for(1))
    services.start_game(game=game, by=ada)
    return game, smtp.wait_for(joined + 2)[joined:]


def test_the_start_of_a_classic_game_tells_the_lay_off_and_a_reply_chooses_it(
    ada: Any, bob: Any, smtp: Any
) -> None:
    game, mails = _started(ada, bob, smtp, "classic")
    assert all(TOLD in text_part(m) for m in mails)
    waiting = Seat.objects.get(game=game, to_act=False).user
    assert waiting is not None
    (theirs,) = [m for m in mails if m["To"] == waiting.email]
    sent = len(smtp.messages)
    deliver(reply_to(theirs, "prefer layoff ask", sender=waiting.email))
    game.refresh_from_db()
    shown = selectors.game_view(game=game, user=waiting)
    assert shown["view"]["players"][shown["your_seat"]]["prefs"]["layoff"] == "ask"
    assert len(smtp.wait_for(sent + 1)) == sent + 1  # the reply is answered (played)


def test_the_2024_edition_has_no_lay_off_to_tell(ada: Any, bob: Any, smtp: Any) -> None:
    _game, mails = _started(ada, bob, smtp, "2024")
    assert not [m for m in mails if TOLD in text_part(m)]


def test_in_french_the_start_gives_the_french_command_and_it_plays(
    ada: Any, bob: Any, smtp: Any
) -> None:
    for user in (ada, bob):
        user.language = "fr"
        user.save(update_fields=["language"])
    game, mails = _started(ada, bob, smtp, "classic")
    waiting = Seat.objects.get(game=game, to_act=False).user
    assert waiting is not None
    (theirs,) = [m for m in mails if m["To"] == waiting.email]
    assert "réponds «\xa0préférer abandonner demander\xa0»" in text_part(theirs)
    deliver(reply_to(theirs, "préférer abandonner toujours", sender=waiting.email))
    game.refresh_from_db()
    shown = selectors.game_view(game=game, user=waiting)
    assert shown["view"]["players"][shown["your_seat"]]["prefs"]["layoff"] == "always"
