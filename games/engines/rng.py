"""Randomness derived from the game's secret seed and the position in the log.

Every draw is ``HMAC-SHA256(seed, "<label> / draw <k>")``: the label names the position in the
log (``"move 17"``), ``k`` counts the draws made while applying that command. So replaying the
log reproduces every roll and shuffle, and publishing ``sha256(seed)`` at the start and the
seed at the end lets anyone verify them. Nothing here touches the global ``random`` module.

Tests pass a :class:`ScriptedRng` instead, to dictate the next rolls and picks.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, MutableSequence
from typing import Protocol, TypeVar

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

    def __init__(self, seed: str, label: str) -> None:
        self._key = seed.encode()
        self._label = label
        self._k = 0

    def _block(self) -> int:
        message = f"{self._label} / draw {self._k}".encode()
        self._k += 1
        return int.from_bytes(hmac.new(self._key, message, hashlib.sha256).digest(), "big")

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        # Rejection sampling keeps the draw exactly uniform.
        limit = (1 << 256) - (1 << 256) % n
        while True:
            value = self._block()
            if value < limit:
                return value % n

    def die(self) -> int:
        return self.randbelow(6) + 1


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
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


def move_rng(state_seed: str, position: int) -> SeededRng:
    """The source for the command at ``position`` in the log (0 = setup)."""
    return SeededRng(state_seed, f"move {position}")
