"""Hook points run after a transaction that wrote moves has committed.

They receive ids, never model objects, and run via ``transaction.on_commit``, so a
rolled-back move never notifies anybody. The services only announce the fact with a Django
signal; whoever cares (the notifications app) connects to it, so nothing here imports the
apps that sit above the games.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.dispatch import Signal

moves_committed = Signal()
"""Sent with ``game_id`` and ``seqs`` (a list of ints; seq 0: the game started)."""


def after_moves(game_id: int, seqs: Sequence[int]) -> None:
    """Moves ``seqs`` of game ``game_id`` were committed."""
    moves_committed.send(sender=None, game_id=game_id, seqs=list(seqs))
