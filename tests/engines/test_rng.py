"""Every draw of :class:`SeededRng` is HMAC-SHA256(seed, "<label> / draw <k>") (RFC 2104), so
replays of stored games and anyone checking a published seed get the same dice. The draws are
computed from cached keyed hashes for speed: they must stay byte for byte the HMAC."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.engines.rng import SeededRng


def reference_block(seed: str, label: str, k: int) -> int:
    digest = hmac.new(seed.encode(), f"{label} / draw {k}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


@pytest.mark.parametrize(
    "seed",
    [
        "",
        "x",
        "a" * 63,
        "b" * 64,  # exactly one SHA-256 block: the key is used as it is
        "c" * 65,  # longer than a block: the key is hashed first
        "d" * 200,
        "é" * 40,  # 80 bytes in UTF-8
        "3f" * 32,  # the platform's seeds: 64 hex characters
    ],
)
def test_every_block_is_the_hmac_of_its_label(seed):
    rng = SeededRng(seed, "move 17")
    assert [rng._block() for _ in range(12)] == [
        reference_block(seed, "move 17", k) for k in range(12)
    ]


def test_dice_and_picks_of_a_known_seed_are_what_they_always_were():
    """Pinned from the engine before the draws were made faster (commit b0a9b34)."""
    rng = SeededRng("pinned seed", "move 7")
    assert [rng.die() for _ in range(8)] + [rng.randbelow(1_000_003)] == [
        3, 4, 3, 4, 4, 5, 6, 3, 75651,
    ]  # fmt: skip


def test_draws_of_one_position_do_not_depend_on_another_positions_draws():
    """Two sources of the same seed (the cached keyed hashes are shared) stay independent."""
    first, second = SeededRng("shared", "move 1"), SeededRng("shared", "move 2")
    a = [first.die() for _ in range(5)]
    b = [second.die() for _ in range(5)]
    again = SeededRng("shared", "move 1")
    assert [again.die() for _ in range(5)] == a
    later = SeededRng("shared", "move 2")
    assert [later.die() for _ in range(5)] == b


def test_a_bound_that_is_not_positive_is_refused():
    with pytest.raises(ValueError):
        SeededRng("s", "move 1").randbelow(0)
