"""A French or Italian player reads the service's refusal on the board page in their own
language (worded when the service raised it), and the status words of the page too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import actor, drawn_form, footprint, other, page_text

pytestmark = pytest.mark.django_db


def _refusal(client: Any, game: Any, user: Any, **data: Any) -> tuple[int, str]:
    """Post the move form as ``user``; the status and the error shown next to the form."""
    client.force_login(user)
    form = drawn_form(client.get(f"/games/{game.pk}/").content.decode())
    before = footprint(game)
    response = client.post(f"/games/{game.pk}/", {**form, **data})
    assert footprint(game) == before
    html = response.content.decode()
    return response.status_code, page_text(html.split('id="move-error"', 1)[1].split("</div>")[0])


@pytest.mark.parametrize(
    ("language", "not_yours", "numbered", "status"),
    [
        ("fr", "pas au tien", "commande 2 sur 2 : ", "en cours"),
        ("it", "non il tuo", "comando 2 di 2: ", "in corso"),
    ],
)
def test_a_refusal_on_the_page_is_in_the_players_language(
    client: Any,
    ada: Any,
    bob: Any,
    make_game: Any,
    language: str,
    not_yours: str,
    numbered: str,
    status: str,
) -> None:
    game = make_game(ada, bob, game_type="vegas")
    waiting = other(game, actor(game))
    waiting.language = language
    waiting.save(update_fields=["language"])
    code, error = _refusal(client, game, waiting, text="place 1")
    assert code == 409
    assert not_yours in error.lower() and "not yours" not in error
    mover = actor(game)
    mover.language = language
    mover.save(update_fields=["language"])
    code, error = _refusal(client, game, mover, text="place 1\nfly to the moon")
    assert code == 400
    assert numbered in error.lower(), error
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert status in page


@pytest.mark.parametrize(
    ("language", "private", "no_move", "no_invitation"),
    [
        ("fr", "est privée", "n'a pas de coup 99", "Cette invitation n'existe pas"),
        ("it", "è privata", "non ha la mossa 99", "Questo invito non esiste"),
    ],
)
def test_a_page_that_is_not_there_says_why_in_the_players_language(
    client: Any,
    ada: Any,
    bob: Any,
    make_user: Any,
    make_game: Any,
    language: str,
    private: str,
    no_move: str,
    no_invitation: str,
) -> None:
    """Someone else's private game, a move the log does not have, an invitation link that
    names none: the page says which, in the reader's language."""
    closed = make_game(ada, bob, private=True)
    game = make_game(ada, bob)
    stranger = make_user("cy", language=language)
    client.force_login(stranger)
    for url, status, said in (
        (f"/games/{closed.pk}/", 403, private),
        (f"/games/{game.pk}/moves/99/", 404, no_move),
        ("/games/invitations/bogus/", 404, no_invitation),
    ):
        response = client.get(url)
        assert response.status_code == status, url
        assert said in page_text(response.content.decode()), url
