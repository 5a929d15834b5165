"""The database itself refuses to change or delete a logged move."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import Move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def move(make_game, ada, bob):
    make_game(ada, bob)
    return Move.objects.get(seq=0)


def test_it_refuses_an_update_of_a_move(move):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Move.objects.filter(pk=move.pk).update(text="rewritten")
    assert Move.objects.get(pk=move.pk).text == ""


def test_it_refuses_raw_sql_too(move):
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE games_move SET events = '[]' WHERE id = %s", [move.pk])


def test_it_refuses_a_delete_of_a_move(move):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Move.objects.filter(pk=move.pk).delete()
    assert Move.objects.filter(pk=move.pk).exists()


def test_the_model_refuses_to_save_a_logged_move_again(move):
    move.text = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        move.save()
