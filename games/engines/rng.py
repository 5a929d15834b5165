"""Randomness derived from the game's secret seed and the position in the log.

Every draw is ``HMAC-SHA256(seed, "<label> / draw <k>")``: the label names the position in the
log (``"move 17"``), ``k`` counts the draws made while applying that command. So replaying the
log reproduces every roll and shuffle, and publishing ``sha256(seed)`` at the start and the
seed at the end lets anyone verify them. Nothing here touches the global ``random`` module.

Tests pass a :class:`ScriptedRng` instead, to dictate the next rolls and picks.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Iterable, MutableSequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    """The random source an engine draws from."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""

    def die(self) -> int:
        """A six-sided die: 1 to 6."""


def new_seed() -> str:
    """A fresh secret seed (the platform's job, kept here so every caller makes the same kind)."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The public commitment to a seed, published when the game starts."""
    return hashlib.sha256(seed.encode()).hexdigest()


class SeededRng:
    """Deterministic draws for one position of the log."""

    __slots__ = ("_inner", "_k", "_label", "_outer", "_seed")  # one is made per command

    def __init__(self, seed: str, label: str) -> None:
        self._seed = seed
        self._label = label
        self._k = 0
        self._inner: Any = None
        self._outer: Any = None

    def _prepare(self) -> None:
        """Most commands draw nothing, so the hashes are prepared at the first draw, not when
        the source is made."""
        inner, self._outer = _keyed(self._seed)
        self._inner = inner.copy()  # the shared one stays as it is
        self._inner.update(f"{self._label} / draw ".encode())

    def _block(self) -> int:
        """HMAC-SHA256(seed, "<label> / draw <k>"), from the seed's keyed hashes (see
        :func:`_keyed`), the label already fed to the inner one."""
        if self._inner is None:
            self._prepare()
        inner = self._inner.copy()
        inner.update(b"%d" % self._k)
        self._k += 1
        outer = self._outer.copy()
        outer.update(inner.digest())
        return int.from_bytes(outer.digest(), "big")

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        # Rejection sampling keeps the draw exactly uniform.
        limit = _SPAN - _SPAN % n
        block = self._block
        while True:
            value = block()
            if value < limit:
                return value % n

    def die(self) -> int:
        """``randbelow(6) + 1``, without its checks (a die is the commonest draw)."""
        block = self._block
        while True:
            value = block()
            if value < _DIE_LIMIT:
                return value % 6 + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """:func:`shuffle` with this source: the same draws, in the same order (one
        ``randbelow(i + 1)`` per position, from the last down), with the block inlined
        because a new game shuffles 48 cards."""
        if self._inner is None:
            self._prepare()
        inner0, outer0, k = self._inner, self._outer, self._k
        from_bytes = int.from_bytes
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                inner = inner0.copy()
                inner.update(b"%d" % k)
                k += 1
                outer = outer0.copy()
                outer.update(inner.digest())
                value = from_bytes(outer.digest(), "big")
                if value < limit:
                    break
            j = value % n
            items[i], items[j] = items[j], items[i]
        self._k = k


_SPAN = 1 << 256
"""How many values one block can take."""
_DIE_LIMIT = _SPAN - _SPAN % 6
"""``randbelow(6)``'s rejection bound."""
_BLOCK = 64  # SHA-256's block size, in bytes


@functools.lru_cache(maxsize=64)
def _keyed(seed: str) -> tuple[Any, Any]:
    """SHA-256 already fed with the seed's inner and outer HMAC pads (RFC 2104).

    A draw then costs two hash copies instead of a new HMAC (which hashes both pads again):
    the same bytes as ``hmac.new(seed, message, sha256).digest()``, at a third of the cost.
    Cached per seed because a game draws from the same seed at every command; callers only
    copy these objects, never update them.
    """
    key = seed.encode()
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = hashlib.sha256(key.translate(_IPAD))
    outer = hashlib.sha256(key.translate(_OPAD))
    return inner, outer


_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


class ScriptedRng:
    """A random source whose answers a test writes down in advance.

    ``dice`` are returned by :meth:`die` in order; ``picks`` by :meth:`randbelow`. Running out
    raises, so a test never silently depends on a draw it did not foresee. ``fallback`` (any
    Rng) answers once a script runs out, for tests that only care about the first draws.
    """

    def __init__(
        self, dice: Iterable[int] = (), picks: Iterable[int] = (), fallback: Rng | None = None
    ) -> None:
        self.dice = list(dice)
        self.picks = list(picks)
        self.fallback = fallback

    def die(self) -> int:
        if self.dice:
            value = self.dice.pop(0)
            if not 1 <= value <= 6:
                raise ValueError(f"a scripted die must be 1-6, not {value}")
            return value
        if self.fallback is None:
            raise LookupError("the scripted dice ran out")
        return self.fallback.die()

    def randbelow(self, n: int) -> int:
        if self.picks:
            value = self.picks.pop(0)
            if not 0 <= value < n:
                raise ValueError(f"a scripted pick must be in [0, {n}), not {value}")
            return value
        if self.fallback is None:
            raise LookupError("the scripted picks ran out")
        return self.fallback.randbelow(n)


def shuffle(rng: Rng, items: MutableSequence[T]) -> None:
    """Fisher-Yates in place, drawing from ``rng``."""
    if type(rng) is SeededRng:
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


def move_rng(state_seed: str, position: int) -> SeededRng:
    """The source for the command at ``position`` in the log (0 = setup)."""
    return SeededRng(state_seed, f"move {position}")
