"""Hook points run after a transaction that wrote moves has committed.

The notifications issue fills these in (enqueue the "your turn" emails...). They receive ids,
never model objects, and run via ``transaction.on_commit``, so a rolled-back move never
notifies anybody.
"""

from __future__ import annotations

from collections.abc import Sequence


def after_moves(game_id: int, seqs: Sequence[int]) -> None:
    """Moves ``seqs`` of game ``game_id`` were committed (seq 0: the game started)."""
