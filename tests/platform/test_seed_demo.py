"""``manage.py seed_demo`` creates the demo players and games once."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import User
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_it_seeds_the_demo_once(capsys):
    call_command("seed_demo", moves=6)
    out = capsys.readouterr().out
    assert "ada@example.org" in out and "lords-demo-password" in out
    games = set(Game.objects.values_list("pk", "version"))
    assert User.objects.get(email="admin@example.org").is_superuser
    assert User.objects.get(email="bob@example.org").check_password("lords-demo-password")
    vegas = Game.objects.get(game_type="vegas")
    assert vegas.status == Game.Status.ACTIVE and vegas.version >= 6
    call_command("seed_demo", moves=6)
    assert set(Game.objects.values_list("pk", "version")) == games
    assert User.objects.count() == 5
    for game in Game.objects.all():
        assert services.verify_game(game=game).ok
