"""The signed reply address of a (game, seat): round trip, tampering, case."""

from __future__ import annotations

from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from notifications.addresses import parse_reply_address, reply_address

ids = st.integers(min_value=1, max_value=10**12)


@given(ids, ids)
def test_it_round_trips(game_id, seat_id):
    address = reply_address(game_id, seat_id)
    local = address.split("@")[0]
    assert local == local.lower() and local.replace("+", "").isalnum()
    assert parse_reply_address(address) == (game_id, seat_id)
    assert parse_reply_address(f"Lords <{address}>") == (game_id, seat_id)


@given(ids, ids)
def test_it_ignores_case(game_id, seat_id):
    address = reply_address(game_id, seat_id)
    assert parse_reply_address(address.upper()) == (game_id, seat_id)


@given(ids, ids, st.data())
def test_any_change_to_the_token_is_refused(game_id, seat_id, data):
    address = reply_address(game_id, seat_id)
    local, domain = address.split("@")
    start = len("play+")
    index = data.draw(st.integers(min_value=start, max_value=len(local) - 1))
    new = data.draw(
        st.sampled_from("0123456789abcdefghijklmnopqrstuvwxyz").filter(lambda c: c != local[index])
    )
    tampered = local[:index] + new + local[index + 1 :]
    assert parse_reply_address(f"{tampered}@{domain}") is None
    assert parse_reply_address(f"{local[:-1]}@{domain}") is None  # shortened
    assert parse_reply_address(f"{local}0@{domain}") is None  # lengthened


@given(ids, ids)
def test_another_secret_is_refused(game_id, seat_id):
    address = reply_address(game_id, seat_id)
    with override_settings(SECRET_KEY="another-secret-" + "x" * 40):
        assert parse_reply_address(address) is None
        assert parse_reply_address(reply_address(game_id, seat_id)) == (game_id, seat_id)
    assert parse_reply_address(address, secret="another-secret-" + "y" * 40) is None


def test_another_domain_is_refused():
    address = reply_address(12, 34)
    assert parse_reply_address(address.replace("@", "@evil.")) is None
    assert parse_reply_address("play+g12s34k00@localhost") is None
    assert parse_reply_address("someone@localhost") is None
