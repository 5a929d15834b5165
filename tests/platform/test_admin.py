"""The admin never lets staff see or publish a running game's seed."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory

from games.models import Game

pytestmark = pytest.mark.django_db


def test_it_keeps_a_running_games_status_out_of_reach(make_game, ada, bob):
    # Marking a running game finished would make the API publish its seed.
    game = make_game(ada, bob, game_type="vegas")
    admin = site._registry[Game]
    request = RequestFactory().get("/admin/")
    readonly = admin.get_readonly_fields(request, game)
    assert {"status", "game_type", "options", "seed_hash"} <= set(readonly)
    assert "seed" not in admin.get_fields(request, game)
    assert "state" not in admin.get_fields(request, game)
