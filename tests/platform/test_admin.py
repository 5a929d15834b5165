"""The admin never lets staff see or publish a running game's seed."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory

from games.admin import SeatInline
from games.models import Game, TradeOffer

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


def test_it_leaves_a_running_games_seats_and_offers_to_the_services(make_game, ada, bob):
    game = make_game(ada, bob, game_type="vegas")
    request = RequestFactory().get("/admin/")
    seats = SeatInline(Game, site)
    assert set(seats.get_readonly_fields(request, game)) == set(seats.fields)
    assert not seats.has_add_permission(request, game)
    assert not seats.has_delete_permission(request, game)
    offers = site._registry[TradeOffer]
    assert not offers.has_add_permission(request)
    assert {"status", "accepted_by"} <= set(offers.get_readonly_fields(request))
