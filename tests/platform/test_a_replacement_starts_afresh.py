"""A player who takes over a seat (staff's or a league admin's replacement) takes over its
holdings, not its player's private words (found by a privacy test): they read the notes of
the player before, the private messages between them and another player, and saw the
table messages of the player before under their own name."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from accounts.data import personal_data
from games.api.talk import present_message
from games.services import talk
from games.services.tools import replace_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def replaced(make_game: Any, ada: Any, bob: Any, cy: Any, dee: Any, make_user: Any) -> Any:
    """A game of Ada, Bob and Cy in which Cy wrote notes, told the table something and
    whispered with Bob, then Dee took Cy's seat."""
    game = make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)
    cy_seat, bob_seat = game.seats.get(user=cy), game.seats.get(user=bob)
    talk.save_note(game=game, user=cy, text="Bob bluffs on E4")
    talk.say(game=game, user=cy, text="good luck all", source="web")
    talk.say(game=game, user=cy, text="ally against Ada?", to=bob_seat.order, source="web")
    talk.say(game=game, user=bob, text="deal", to=cy_seat.order, source="web")
    talk.set_mute(game=game, user=cy, order=game.seats.get(user=ada).order, muted=True)
    staff = make_user("staff", is_staff=True)
    replace_player(
        game=game, by=staff, seat=cy_seat.order, why="Cy left", substitute=dee, authorized=True
    )
    return game


def test_the_newcomer_reads_neither_the_notes_nor_the_private_talk_of_the_player_before(
    replaced: Any, ada: Any, bob: Any, cy: Any, dee: Any
) -> None:
    game = replaced
    assert talk.note_of(game=game, user=dee) == ""
    seen = talk.messages_for(game=game, user=dee)
    assert [m.text for m in seen] == ["good luck all"]
    # The table still reads Cy's words as Cy's, not as the newcomer's.
    assert present_message(seen[0])["author_name"] == "cy"
    # Bob keeps his conversation with Cy, with Cy's name on it.
    bobs = {
        m.text: present_message(m)["author_name"] for m in talk.messages_for(game=game, user=bob)
    }
    assert bobs == {"good luck all": "cy", "ally against Ada?": "cy", "deal": "bob"}
    # Cy's mute of Ada was Cy's: Dee reads Ada.
    talk.say(game=game, user=ada, text="hello Dee", source="web")
    assert "hello Dee" in [m.text for m in talk.messages_for(game=game, user=dee)]
    # Dee's notes are Dee's own from now on, and Cy's stay Cy's.
    talk.save_note(game=game, user=dee, text="mine")
    assert talk.note_of(game=game, user=dee) == "mine"


def test_each_persons_data_holds_their_own_words(replaced: Any, cy: Any, dee: Any) -> None:
    mine = personal_data(user=dee)
    assert mine["notes"] == [] and mine["messages"] == []
    theirs = personal_data(user=cy)
    assert [n["text"] for n in theirs["notes"]] == ["Bob bluffs on E4"]
    assert {m["text"] for m in theirs["messages"]} == {"good luck all", "ally against Ada?", "deal"}


def test_the_talk_before_a_replacement_goes_back_to_its_writer(
    make_game: Any, ada: Any, bob: Any, cy: Any, dee: Any, make_user: Any
) -> None:
    """Migration 0018 gave every message and note written so far to the seat's player of
    now, so the talk of the player before a replacement stayed the newcomer's to read and
    sign (found by review): the replacement's log entry says whom it took the seat from."""
    from django.apps import apps

    from games.models import ChatMessage, PlayerNote

    migration = importlib.import_module("games.migrations.0018_talk_people_of_the_time")
    game = make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)
    cy_seat, bob_seat = game.seats.get(user=cy), game.seats.get(user=bob)
    talk.save_note(game=game, user=cy, text="Cy's plan")
    talk.say(game=game, user=cy, text="ally?", to=bob_seat.order, source="web")
    talk.say(game=game, user=bob, text="deal", to=cy_seat.order, source="web")
    replace_player(
        game=game,
        by=make_user("staff", is_staff=True),
        seat=cy_seat.order,
        why="Cy left",
        substitute=dee,
        authorized=True,
    )
    talk.say(game=game, user=dee, text="hi all", source="web")
    # As before the migration: no person recorded.
    ChatMessage.objects.update(author_user=None, to_user=None)
    PlayerNote.objects.update(user=None)

    migration.people_of_the_time(apps, None)

    written = {m.text: (m.author_user_id, m.to_user_id) for m in ChatMessage.objects.all()}
    assert written == {
        "ally?": (cy.pk, bob.pk),
        "deal": (bob.pk, cy.pk),
        "hi all": (dee.pk, None),
    }
    assert list(PlayerNote.objects.values_list("user_id", flat=True)) == [cy.pk]
    assert [m.text for m in talk.messages_for(game=game, user=dee)] == ["hi all"]
    # A message whose writer nobody recorded is an earlier player's, not the newcomer's.
    ChatMessage.objects.filter(text="ally?").update(author_user=None)
    bobs = {
        m.text: present_message(m)["author_name"] for m in talk.messages_for(game=game, user=bob)
    }
    assert bobs["ally?"] == "an earlier player"
