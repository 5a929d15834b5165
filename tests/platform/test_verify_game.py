"""Verifiable dice: replaying the log from the revealed seed reproduces every event."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services
from games.models import Game

from .helpers import legal_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_game, ada):
    game = make_game(ada, bots=1)
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=ada, text=legal_text(game))
    return game


def test_it_says_a_finished_game_matches(finished):
    result = services.verify_game(game=finished)
    assert result.ok, result.problems
    assert result.moves_checked == finished.version + 1


def test_it_detects_a_tampered_snapshot(finished, games_may_be_tampered):
    state = dict(finished.state)
    state["won"] = [list(w) for w in state["won"]]
    state["won"][0].append(90_000)
    Game.objects.filter(pk=finished.pk).update(state=state)
    result = services.verify_game(game=finished.pk)
    assert not result.ok
    assert "snapshot" in result.problems[0]


def test_it_detects_a_tampered_seed(finished, games_may_be_tampered):
    Game.objects.filter(pk=finished.pk).update(seed="00" * 32)
    result = services.verify_game(game=finished.pk)
    assert not result.ok and result.first_bad_seq == 0


def test_the_command_prints_the_result_and_fails_on_a_mismatch(
    finished, capsys, games_may_be_tampered
):
    call_command("verify_game", str(finished.pk))
    assert "matches" in capsys.readouterr().out
    Game.objects.filter(pk=finished.pk).update(state={**finished.state, "round": 1})
    with pytest.raises(CommandError, match="does not match"):
        call_command("verify_game", str(finished.pk))


def test_it_verifies_a_running_game_too(make_game, ada, bob):
    game = make_game(ada, bob)
    assert services.verify_game(game=game).ok


def test_the_suite_replays_every_finished_game_it_leaves(finished):
    """(The autouse check in tests/conftest.py runs after this test and finds the game.)"""
    from tests.conftest import replay_finished_games

    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 1
    assert replay_finished_games() == []


def test_the_commands_name_a_game_that_does_not_exist():
    with pytest.raises(CommandError, match="there is no game #999999"):
        call_command("verify_game", "999999")
    with pytest.raises(CommandError, match="there is no game #999999"):
        call_command("export_game", "999999")
