"""Deadlines: the timeout policy and vacation mode (``docs/decisions/0004-deadlines.md``).

Celery beat runs :func:`sweep` every minute. It finds the running games whose deadline has
passed (the ``(status, deadline)`` index) and calls :func:`apply_timeout` for each, in its
own transaction: the game row is locked as by every other writer and the deadline checked
again under the lock, so a second sweep, or a player's move that got the lock first, makes
it a no-op. For each late seat the engine's ``default_command`` is played (source
``system``, through the one write path, so notifications see it like any Move) for the
rest of that seat's turn only (the engine's ``turn_marker``) and the miss is counted;
after ``max_timeouts`` misses in a row the player forfeits (the resignation path: ranked
last, a bot plays on). A seat whose player is away is not timed
out: the deadline waits for them, within the game's ``vacation_days``; the wait is charged
when granted and the part not waited is given back if a move ends it early.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.engines.base import GameEngine, IllegalCommand, State
from games.models import Game, Move, Seat
from games.services import clock
from games.services.games import resign_seat
from games.services.lookups import copy_into, engine_for, lock_game, seats_in_order
from games.services.movelog import Entry
from games.services.moves import commit_commands

log = logging.getLogger(__name__)

SWEEP_BATCH = 500
"""At most this many games per sweep (the next sweep, a minute later, takes the rest)."""

COMMANDS_PER_MISS = 50
"""A safety cap on the default commands played for one seat at one missed deadline."""


@dataclass(frozen=True)
class TimeoutResult:
    """What :func:`apply_timeout` did to one game. ``applied`` is False when there was
    nothing to do (not running, or the deadline had moved on: another sweep or a move came
    first). Seats are named by their order."""

    game_id: int
    applied: bool
    missed: list[int] = field(default_factory=list)
    forfeited: list[int] = field(default_factory=list)
    away: list[int] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    deadline: datetime | None = None


def sweep(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> list[TimeoutResult]:
    """Apply the timeout policy to every running game past its deadline at ``now``; each
    game in its own transaction. A game that fails is logged and skipped: the rest go on.
    Returns what was applied (no-ops left out)."""
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now, paused_at__isnull=True)
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )
    results = []
    for game_id in due:
        try:
            result = apply_timeout(game=game_id, now=now)
        except Exception:  # one broken game must not hold up the others' deadlines
            log.exception("the timeout of game #%s failed", game_id)
            continue
        if result.applied:
            results.append(result)
    return results


def apply_timeout(*, game: Game | int, now: datetime | None = None) -> TimeoutResult:
    """The policy for one game whose deadline passed at ``now``: idempotent (the deadline
    is checked again under the game lock and always ends up after ``now``)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = lock_game(game)
        if (
            locked.status != Game.Status.ACTIVE
            or locked.deadline is None
            or locked.deadline > now
            or locked.state is None
            or locked.paused_at is not None  # paused: no deadline runs (game tools)
        ):
            return TimeoutResult(locked.pk, applied=False, deadline=locked.deadline)
        result = _apply(locked, now)
    if isinstance(game, Game):
        copy_into(game, locked)
    return result


def _apply(game: Game, now: datetime) -> TimeoutResult:
    engine = engine_for(game)
    seats = seats_in_order(game)
    assert game.state is not None
    waiting = engine.to_act(game.state)
    late = [s for s in seats if s.order in waiting and s.user is not None and not s.is_bot]
    away = {s.order: back for s in late if (back := _back_from_vacation(game, s, now)) is not None}
    state: State = game.state
    entries: list[Entry] = []
    missed: list[Seat] = []
    for seat in late:
        if seat.order in away:
            continue
        state, played = _play_for(engine, state, seat)
        if played:
            entries += played
            missed.append(seat)
    for seat in missed:
        seat.timeouts += 1
        seat.timeouts_in_a_row += 1
        seat.save(update_fields=["timeouts", "timeouts_in_a_row"])
    game.deadline = None  # spent: the moves below set no vacation wait to end
    moves: list[Move] = []
    if entries or any(s.is_bot and s.order in waiting for s in seats):
        moves = commit_commands(game, engine, state, entries, seats=seats)
    forfeits = [s for s in missed if 0 < game.max_timeouts <= s.timeouts_in_a_row]
    for seat in forfeits:
        if game.status == Game.Status.ACTIVE:
            moves += resign_seat(game, seat, now=now, reason="timeouts")
    if game.status == Game.Status.ACTIVE:
        assert game.state is not None
        game.deadline = _next_deadline(game, engine.to_act(game.state), seats, away, now)
        game.save(update_fields=["deadline", "clock_started_at"])
    return TimeoutResult(
        game.pk,
        applied=True,
        missed=[s.order for s in missed],
        forfeited=[s.order for s in forfeits],
        away=sorted(away),
        moves=moves,
        deadline=game.deadline,
    )


def _play_for(engine: GameEngine, state: State, seat: Seat) -> tuple[State, list[Entry]]:
    """The engine's default commands for ``seat`` until the game no longer waits on it
    (a pending decision answered, then the turn ended) or the turn is over (the engine's
    ``turn_marker`` changed: in Vegas the next turn may be the same seat's again): one
    missed deadline, one turn."""
    entries: list[Entry] = []
    marker = engine.turn_marker(state)
    while (
        len(entries) < COMMANDS_PER_MISS
        and engine.outcome(state) is None
        and seat.order in engine.to_act(state)
        and engine.turn_marker(state) == marker
    ):
        try:
            command = engine.default_command(state, seat.order)
            new_state, events = engine.apply(state, seat.order, command)
        except IllegalCommand:  # an engine bug: leave the seat waiting, say so
            log.exception("no default command for seat %s of game #%s", seat.order, seat.game_id)
            break
        text = engine.format(command)
        entries.append(Entry(seat, command, text, list(events), Move.Source.SYSTEM))
        state = new_state
    return state, entries


def _back_from_vacation(game: Game, seat: Seat, now: datetime) -> datetime | None:
    """When the seat's player is back, if they are away at ``now`` and the game still has
    vacation for them (``vacation_days`` per seat, in all); else None."""
    until = seat.user.away_until if seat.user is not None else None
    if until is None or until <= now:
        return None
    left = timedelta(days=game.vacation_days) - seat.vacation_used
    if left <= timedelta(0):
        return None
    return min(until, now + left)


def _next_deadline(
    game: Game,
    waiting: Sequence[int],
    seats: Sequence[Seat],
    away: dict[int, datetime],
    now: datetime,
) -> datetime:
    """A turn's time from ``now``; or, while the game still waits on players who are away,
    a turn's time from the first return. Each of them is charged that wait (from ``now`` to
    that return) to their vacation in this game; :func:`clock.end_vacation_wait` gives back the
    part the game did not wait."""
    waited_for = [s for s in seats if s.order in away and s.order in waiting and not s.resigned]
    if not waited_for:
        return clock.start_wait(game, seats, waiting, now)
    until = min(away[s.order] for s in waited_for)
    for seat in waited_for:
        seat.vacation_used += until - now
        seat.save(update_fields=["vacation_used"])
    return clock.start_wait(game, seats, waiting, until)  # the clock starts at the return
