"""Fixtures for the REST API tests (the helpers are in :mod:`tests.api.helpers`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.api.helpers import Player, make_player


@pytest.fixture(autouse=True)
def _own_throttle_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test counts its requests under its own cache keys: the cache (Redis) is shared
    with other tests, other xdist workers (whose user ids overlap) and earlier runs. The
    scripted players poll far faster than people, so the user and anonymous rates are off
    unless a test about throttling sets them (``test_errors``)."""
    prefix = f"throttle_test_{uuid.uuid4().hex}"
    monkeypatch.setattr(SimpleRateThrottle, "cache_format", prefix + "_%(scope)s_%(ident)s")
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"user": None, "anon": None})


@pytest.fixture
def player_factory(db: None) -> Callable[..., Player]:
    return make_player


@pytest.fixture
def alice(player_factory: Callable[..., Player]) -> Player:
    return player_factory("alice")


@pytest.fixture
def bob(player_factory: Callable[..., Player]) -> Player:
    return player_factory("bob")


@pytest.fixture
def carol(player_factory: Callable[..., Player]) -> Player:
    return player_factory("carol")


@pytest.fixture
def anonymous(db: None) -> APIClient:
    return APIClient()
