"""The answer to a refused emailed reply gives the service's reason in the player's own
language: the email door words the refusal in the player's language when it is raised."""

from __future__ import annotations

import pytest

from games.models import Move
from notifications.services import notify_game
from tests.notifications.conftest import deliver, reply_to, text_part

pytestmark = pytest.mark.django_db


def test_a_french_players_refused_reply_is_answered_in_french(make_game, ada, bob, smtp):
    ada.language = "fr"
    ada.save(update_fields=["language"])
    bob.language = "fr"
    bob.save(update_fields=["language"])
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [turn] = smtp.wait_for(1)
    assert deliver(reply_to(turn, "place 1\nfly to the moon\nplace 2")).startswith("refused:")
    assert not Move.objects.filter(game=game, source="email").exists()
    messages = smtp.wait_for(2)
    answer = text_part(messages[-1])
    assert "commande 2 sur 3 : " in answer, answer
    assert "command 2 of 3" not in answer


def test_a_resignation_refused_is_answered_in_the_players_language(make_game, ada, bob, smtp):
    """Found by QA: the refusal of a bare "resign" was always English."""
    for user in (ada, bob):
        user.language = "fr"
        user.save(update_fields=["language"])
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    [turn] = smtp.wait_for(1)
    assert deliver(reply_to(turn, "resign")).startswith("refused:")
    answer = " ".join(text_part(smtp.wait_for(2)[-1]).split())
    assert f"pour abandonner la partie #{game.pk}, réponds avec cette ligne" in answer
    assert "reply with this line" not in answer
