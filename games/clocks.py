"""Game clocks as pure arithmetic: no database, no "now" of their own (time is data).

A game has one of two clocks (docs/decisions/0018-clocks-and-channels.md):

- **fixed**: each turn has the same time (``turn_hours``) from the moment the game starts
  waiting on the player;
- **bank**: each player has a time bank (``bank_hours`` to start); the time they spend
  waiting-on is taken from it and every finished turn adds ``increment_hours``, never
  beyond ``bank_cap_hours`` (Fischer increment with a cap, as correspondence sites do).

Either may stop over each player's weekend (Saturday 00:00 to Monday 00:00 in the player's
own time zone): that time neither counts nor runs out. The deadline of a wait is the
earliest instant at which one of the seats waited on has no time left, moved out of the
quiet hours of the players waited on (:func:`out_of_quiet_hours`).

The Django side (which seats, which zones, saving) is ``games/services/clock.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

FIXED, BANK = "fixed", "bank"
KINDS = (FIXED, BANK)
NO_TIME = timedelta(0)


@dataclass(frozen=True)
class Clock:
    """A game's clock settings. ``turn`` is the fixed clock's time per turn; ``initial``,
    ``increment`` and ``cap`` are the bank clock's."""

    kind: str = FIXED
    turn: timedelta = timedelta(hours=72)
    initial: timedelta = timedelta(hours=72)
    increment: timedelta = timedelta(hours=24)
    cap: timedelta = timedelta(hours=168)
    weekend_pause: bool = False

    @property
    def is_bank(self) -> bool:
        return self.kind == BANK


def _weekends(
    start: datetime, end: datetime, zone: ZoneInfo
) -> Iterator[tuple[datetime, datetime]]:
    """The local weekends (as UTC instants) that overlap ``[start, end)``. Built from local
    midnights, so a weekend with a DST change lasts 47 or 49 hours, as the player lives it."""
    day = start.astimezone(zone).date() - timedelta(days=(start.astimezone(zone).weekday() + 2) % 7)
    last = end.astimezone(zone).date()
    while day <= last:  # (``day`` is a Saturday)
        begins = datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)
        ends = datetime.combine(day + timedelta(days=2), time(0), tzinfo=zone).astimezone(UTC)
        if begins < end and ends > start:
            yield begins, ends
        day += timedelta(days=7)


def running_time(start: datetime, end: datetime, zone: ZoneInfo | None) -> timedelta:
    """How much clock time passes from ``start`` to ``end``: all of it, but the weekends of
    ``zone`` when the weekend pause is on (``zone`` None: no pause). Never negative."""
    start, end = start.astimezone(UTC), end.astimezone(UTC)  # (same-zone "-" is wall time)
    if end <= start:
        return NO_TIME
    spent = end - start
    if zone is not None:
        for begins, ends in _weekends(start, end, zone):
            spent -= min(ends, end) - max(begins, start)
    return spent


def deadline_after(start: datetime, budget: timedelta, zone: ZoneInfo | None) -> datetime:
    """The instant at which ``budget`` of clock time has run from ``start`` (weekends of
    ``zone`` skipped: a clock that would run out on Saturday runs out on Monday, with the
    rest of its time). Elapsed time is counted in UTC, so a DST change is no hour lost."""
    moment = start.astimezone(UTC)
    left = max(budget, NO_TIME)
    if zone is None:
        return moment + left
    while True:
        weekend = next(_weekends(moment, moment + left + timedelta(days=7), zone), None)
        if weekend is None:  # (cannot happen: there is a weekend in every 7 days)
            return moment + left
        begins, ends = weekend
        if begins <= moment:  # inside a weekend: the clock waits for Monday
            moment = ends
            continue
        if moment + left <= begins:
            return moment + left
        left -= begins - moment
        moment = ends


def bank_after(
    left: timedelta, spent: timedelta, *, turn_ended: bool, increment: timedelta, cap: timedelta
) -> timedelta:
    """A bank after ``spent`` of thinking: never below zero; a finished turn earns the
    increment, but a bank never grows beyond ``cap`` that way (what it had stays)."""
    after = max(left - spent, NO_TIME)
    if turn_ended:
        after = max(after, min(after + increment, cap))
    return after


def wait_deadline(
    clock: Clock,
    start: datetime,
    banks: Mapping[int, timedelta],
    zones: Mapping[int, ZoneInfo],
) -> datetime | None:
    """The deadline of a wait that starts at ``start`` on the seats in ``zones`` (seat
    order -> the player's zone): the first instant at which one of them has no time left.
    ``banks``: each seat's bank (bank clock; a seat missing has the initial bank). None when
    nobody is waited on."""
    deadlines = [
        deadline_after(
            start,
            banks.get(order, clock.initial) if clock.is_bank else clock.turn,
            zone if clock.weekend_pause else None,
        )
        for order, zone in zones.items()
    ]
    return min(deadlines, default=None)


@dataclass(frozen=True)
class QuietHours:
    """A player's quiet hours: wall-clock times in their zone (``start`` after ``end``, as
    22:00 to 07:00, spans midnight; equal times: none)."""

    start: time
    end: time
    zone: ZoneInfo


def quiet_end(moment: datetime, quiet: QuietHours) -> datetime | None:
    """The end of the quiet hours ``moment`` falls in (UTC), or None. The end is a
    wall-clock time on a date, then converted, so 07:00 stays 07:00 across a DST change."""
    if quiet.start == quiet.end:
        return None
    local = moment.astimezone(quiet.zone)
    clock, today = local.time().replace(tzinfo=None), local.date()
    if quiet.start < quiet.end:
        inside, day = quiet.start <= clock < quiet.end, today
    else:  # across midnight: before the end it ends today, after the start tomorrow
        inside = clock >= quiet.start or clock < quiet.end
        day = today + timedelta(days=1) if clock >= quiet.start else today
    if not inside:
        return None
    return datetime.combine(day, quiet.end, tzinfo=quiet.zone).astimezone(UTC)


def out_of_quiet_hours(deadline: datetime, quiets: Iterable[QuietHours]) -> datetime:
    """``deadline``, or the end of the quiet hours of the players waited on that it falls
    in: nobody's time runs out while they sleep. Pushed again while the new instant is in
    another player's quiet hours; when their quiet hours cover the whole day together, the
    pushing stops after one round per player (a deadline must be somewhere)."""
    quiets = list(quiets)
    moment = deadline
    for _ in range(len(quiets) + 1):
        ends = [end for end in (quiet_end(moment, q) for q in quiets) if end is not None]
        if not ends:
            return moment
        moment = max(ends)
    return moment


def cast_vote(votes: Iterable[int], seat: int, voters: Iterable[int]) -> tuple[list[int], bool]:
    """A pause vote of ``seat``: the votes after it (only of seats still entitled to vote),
    and whether every voter now agrees (then the game pauses)."""
    entitled = set(voters)
    after = sorted((set(votes) | {seat}) & entitled)
    return after, bool(entitled) and set(after) == entitled
