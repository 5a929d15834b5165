"""The game record: everything to replay the game; the seed only after the end."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from games import services
from games.engines.rng import seed_hash
from games.models import Game

from .helpers import legal_text, user_to_act

pytestmark = pytest.mark.django_db


def test_the_export_has_no_seed_before_the_end(make_game, ada, bob):
    game = make_game(ada, bob)
    services.submit_command(game=game, user=user_to_act(game), text=legal_text(game))
    record = services.export_game(game=game)
    assert record["seed"] is None and record["seed_hash"] == game.seed_hash
    assert game.seed not in json.dumps(record)
    assert [m["seq"] for m in record["moves"]] == [0, 1]
    assert record["moves"][1]["text"] and record["moves"][1]["command"]
    assert {p["name"] for p in record["players"]} == {"ada", "bob"}
    assert record["options"] == {"variant": "standard"}


def test_the_export_reveals_the_seed_after_the_end(make_game, ada, capsys):
    game = make_game(ada, bots=1)
    while game.status == Game.Status.ACTIVE:
        services.submit_command(game=game, user=ada, text=legal_text(game))
    record = services.export_game(game=game)
    assert seed_hash(record["seed"]) == record["seed_hash"]
    assert record["outcome"] == game.outcome
    call_command("export_game", str(game.pk))
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(record))
