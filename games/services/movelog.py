"""The append-only move log: an applied command becomes an :class:`Entry`, entries become
``Move`` rows after the game's version (the database refuses any update or delete of them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engines.base import Command
from games.models import Game, Move, Seat
from games.services import rows

SOURCES = frozenset(Move.Source.values)


@dataclass(frozen=True)
class Entry:
    """A command ready to be logged: who, what, and what the engine said."""

    seat: Seat | None
    command: Command | None  # None: a platform event (a resignation)
    text: str
    events: list[dict[str, Any]]
    source: str


def append_moves(
    game: Game,
    entries: Sequence[Entry],
    *,
    idempotency_key: str | None = None,
    fingerprint: str = "",
    batch: int | None = None,
) -> list[Move]:
    """Append the entries to the log after ``game.version``; the first carries the key and
    the request's ``fingerprint``; ``batch`` is the seq of the submission's first Move
    (default: this call's first)."""
    first = game.version + 1
    batch = first if batch is None else batch
    moves = [
        rows.new(
            Move,
            game=game,
            seq=first + i,
            seat=entry.seat,
            command=None if entry.command is None else entry.command.to_json(),
            text=entry.text,
            events=entry.events,
            source=entry.source,
            idempotency_key=idempotency_key if i == 0 else None,
            request_fingerprint=fingerprint if i == 0 else "",
            batch=batch,
        )
        for i, entry in enumerate(entries)
    ]
    rows.insert(moves)
    game.version = first + len(moves) - 1
    return moves
