"""Every draw of :class:`SeededRng` is HMAC-SHA256(seed, "<label> / draw <k>") (RFC 2104), so
replays of stored games and anyone checking a published seed get the same dice. The draws are
computed from cached keyed hashes for speed: they must stay byte for byte the HMAC."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.engines.rng import SeededRng, shuffle


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


class ThroughTheProtocol:
    """A random source seen only through ``randbelow`` and ``die``: :func:`shuffle` cannot
    take :class:`SeededRng`'s own loop for it."""

    def __init__(self, inner: SeededRng) -> None:
        self.inner = inner

    def randbelow(self, n: int) -> int:
        return self.inner.randbelow(n)

    def die(self) -> int:
        return self.inner.die()


@pytest.mark.parametrize("size", [0, 1, 2, 48, 300])
@pytest.mark.parametrize("drawn_before", [0, 3])
def test_a_seeded_shuffle_is_fisher_yates_through_randbelow(size, drawn_before):
    """SeededRng.shuffle (a new game's 48 cards) draws what the plain loop draws, and leaves
    the source where the plain loop leaves it: the draws after it are the same too."""
    fast, plain = SeededRng("shuffle", "move 0"), SeededRng("shuffle", "move 0")
    assert [fast.die() for _ in range(drawn_before)] == [plain.die() for _ in range(drawn_before)]
    cards, expected = list(range(size)), list(range(size))
    shuffle(fast, cards)
    shuffle(ThroughTheProtocol(plain), expected)
    assert cards == expected
    assert [fast.randbelow(1000) for _ in range(5)] == [plain.randbelow(1000) for _ in range(5)]


def test_a_die_is_randbelow_six_plus_one():
    """die() skips randbelow's checks: the same draws, one block each (or more on a reject)."""
    dice, picks = SeededRng("dice", "move 9"), SeededRng("dice", "move 9")
    assert [dice.die() for _ in range(200)] == [picks.randbelow(6) + 1 for _ in range(200)]
    assert dice._k == picks._k
