"""The game clock on the write path: which seats are waited on, in which zones, with what
bank; the arithmetic itself is :mod:`games.clocks` (pure). Called under the game lock by
``saving.save_game`` (a move: the banks are settled, a new wait starts), by the timeout
sweep (a new wait, maybe after a vacation) and by the game tools (pause, resume). See
docs/decisions/0018-clocks-and-channels.md.

Each wait also tells the seats waited on when to look at their reminders
(:func:`schedule_reminders`, ``Seat.remind_at``): half a turn before the deadline, no later
than any lead time a player may have (a lead longer than half the turn is not used), so the
reminder run reads only the seats due, whatever the number of games running."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Case, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.clocks import (
    BANK,
    FIXED,
    KINDS,
    Clock,
    QuietHours,
    bank_after,
    out_of_quiet_hours,
    running_time,
    wait_deadline,
)
from games.engines.base import GameEngine, State
from games.models import Game, Seat
from games.services import rows
from games.services.errors import InvalidRequest

QuietHoursSource = Callable[[Collection[Any]], Mapping[int, tuple[time, time]]]
QUIET_HOURS: dict[str, QuietHoursSource] = {}
"""Where the clock learns players' quiet hours: users -> their ids -> (from, until),
wall-clock times in the player's zone, for those who have them (a source may find them on
the users already, brought by the game's read: ``rows.PLAYER_ROWS``). The quiet hours are
the notifications app's (its email choices), which the games may not import: it fills this
in its ``ready()``, as it fills ``accounts.api.PROFILE_PARTS``. Empty (no such app): no
quiet hours."""


def clock_of(game: Game) -> Clock:
    """The game's clock settings, as the pure functions take them."""
    return Clock(
        kind=game.clock,
        turn=timedelta(hours=game.turn_hours),
        initial=timedelta(hours=game.bank_hours),
        increment=timedelta(hours=game.increment_hours),
        cap=timedelta(hours=game.bank_cap_hours),
        weekend_pause=game.weekend_pause,
    )


def needs_seats(game: Game) -> bool:
    """Whether the deadline depends on who is waited on (a bank, or weekends in their
    zones); a plain fixed clock is ``start + turn_hours`` for everyone."""
    return game.clock == BANK or game.weekend_pause


def _people(seats: Sequence[Seat], waiting: Collection[int]) -> list[Seat]:
    return [s for s in seats if s.order in waiting and s.user is not None and not s.is_bot]


def bank_of(game: Game, seat: Seat) -> timedelta:
    """The seat's bank now (untouched: the game's initial bank)."""
    return seat.bank_left if seat.bank_left is not None else timedelta(hours=game.bank_hours)


def zone_for(game: Game, seat: Seat) -> ZoneInfo | None:
    """The zone whose weekends stop this seat's clock (None: no weekend pause)."""
    if not game.weekend_pause or seat.user is None:
        return None
    return seat.user.zone


def start_wait(
    game: Game, seats: Sequence[Seat] | None, waiting: Collection[int], start: datetime
) -> datetime:
    """A wait on ``waiting`` whose clock starts at ``start`` (later than now after a
    vacation): recorded on the game; returns its deadline, moved out of the quiet hours of
    the players waited on. A wait on nobody (bots only) still gets a turn's time, as
    before clocks (0004). The seats waited on are given their reminder moment."""
    game.clock_started_at = start
    deadline = _wait_deadline(game, seats, waiting, start)
    schedule_reminders(game, deadline, waiting, seats)
    return deadline


def _wait_deadline(
    game: Game, seats: Sequence[Seat] | None, waiting: Collection[int], start: datetime
) -> datetime:
    deadline = start + timedelta(hours=game.turn_hours)
    if not needs_seats(game) and not QUIET_HOURS:
        return deadline
    if seats is None:
        seats = list(Seat.objects.filter(game=game).select_related("user"))
    people = _people(seats, waiting)
    if needs_seats(game):
        zones = {s.order: zone_for(game, s) or ZoneInfo("UTC") for s in people}
        banks = {s.order: bank_of(game, s) for s in people}
        deadline = wait_deadline(clock_of(game), start, banks, zones) or deadline
    return out_of_quiet_hours(deadline, quiet_hours_of(people))


def reminder_floor(game: Game, deadline: datetime) -> datetime:
    """The earliest moment a reminder before ``deadline`` can be due: half a turn before
    it (a player's lead time longer than that is not used: see
    ``notifications.services.reminder_lead``)."""
    return deadline - timedelta(hours=game.turn_hours) / 2


def schedule_reminders(
    game: Game,
    deadline: datetime | None,
    waiting: Collection[int] | None = None,
    read: Sequence[Seat] | None = None,
) -> None:
    """A new deadline (a wait starts, a paused game resumes; None: the game is over): the
    people's seats waited on (``waiting``: seat orders; None: the seats flagged ``to_act``)
    get ``remind_at`` at :func:`reminder_floor`, when the reminder run looks at them and
    moves it on to their own lead time; the other seats none. One UPDATE, of this game's
    seats only; with the game's seats ``read`` under the lock (the move path), only the
    seats whose moment changes are written, and the instances follow."""
    if read is not None and waiting is not None:
        _schedule_read(game, deadline, waiting, read)
        return
    seats = Seat.objects.filter(game=game)
    if deadline is None:
        seats.filter(remind_at__isnull=False).update(remind_at=None)
        return
    waited = Q(order__in=list(waiting)) if waiting is not None else Q(to_act=True)
    person = waited & Q(user__isnull=False, bot="")
    seats.filter(person | Q(remind_at__isnull=False)).update(
        remind_at=Case(When(person, then=Value(reminder_floor(game, deadline))), default=None)
    )


def _schedule_read(
    game: Game, deadline: datetime | None, waiting: Collection[int], seats: Sequence[Seat]
) -> None:
    floor = None if deadline is None else reminder_floor(game, deadline)
    for seat in seats:
        person = seat.order in waiting and seat.user_id is not None and not seat.bot
        wanted = floor if person else None
        if seat.remind_at != wanted:
            seat.remind_at = wanted
            rows.update(seat, ["remind_at"])


def quiet_hours_of(people: Sequence[Seat]) -> list[QuietHours]:
    """The quiet hours of the players in ``people`` (seats with a user), each in their
    zone: one query per source, none when nobody is waited on."""
    users = {s.user.pk: s.user for s in people if s.user is not None}
    if not users:
        return []
    return [
        QuietHours(start, end, users[user_id].zone)
        for source in QUIET_HOURS.values()
        for user_id, (start, end) in source(list(users.values())).items()
        if user_id in users
    ]


def settle_banks(
    game: Game,
    engine: GameEngine,
    before: State | None,
    after: State,
    now: datetime,
    seats: Sequence[Seat] | None,
) -> Sequence[Seat] | None:
    """A move at ``now`` ends the running wait: each person waited on pays the clock time
    since the wait started; one whose turn it ended (no longer waited on, or the turn moved
    on) earns the increment. Only bank clocks keep banks. Returns the seats read."""
    if game.clock != BANK or before is None or game.clock_started_at is None:
        return seats
    if seats is None:
        seats = list(Seat.objects.filter(game=game).select_related("user"))
    waiting_after = set(engine.to_act(after))
    turn_moved = engine.turn_marker(before) != engine.turn_marker(after)
    clock = clock_of(game)
    for seat in _people(seats, engine.to_act(before)):
        spent = running_time(game.clock_started_at, now, zone_for(game, seat))
        ended = turn_moved or seat.order not in waiting_after
        seat.bank_left = bank_after(
            bank_of(game, seat), spent, turn_ended=ended, increment=clock.increment, cap=clock.cap
        )
        rows.update(seat, ["bank_left"])
    return seats


def vacation_unused(game: Game, now: datetime) -> timedelta | None:
    """The part of a vacation wait not waited when a move comes at ``now``: the clock was
    to start at the player's return (None: not known, a game from before clocks)."""
    if game.clock_started_at is None:
        return None
    return game.clock_started_at - now


CLOCK_SETTINGS = ("kind", "bank_hours", "increment_hours", "cap_hours", "weekend_pause")
MAX_BANK_HOURS = 24 * 30
"""A bank, an increment and a cap are at most this many hours (as a fixed turn)."""


def check_clock(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's clock fields from what a creator asked (the web form and the API send
    the same keys): ``kind`` "fixed" (the default) or "bank"; for a bank ``bank_hours``
    (72), ``increment_hours`` (24, at least 1: a bank that ran out must give the next turn
    some time) and ``cap_hours`` (168, at least the starting bank); ``weekend_pause``
    (false) for either. Bad values: :class:`InvalidRequest` naming the field."""
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(CLOCK_SETTINGS))
    if unknown:
        raise InvalidRequest(
            _("unknown clock setting '%(name)s'") % {"name": unknown[0]}, field="clock"
        )
    kind = raw.get("kind", FIXED)
    if kind not in KINDS:
        raise InvalidRequest(
            _("the clock is 'fixed' or 'bank', not %(value)r") % {"value": kind}, field="clock"
        )
    pause = raw.get("weekend_pause", False)
    if not isinstance(pause, bool):
        raise InvalidRequest(_("weekend_pause is true or false"), field="weekend_pause")
    fields: dict[str, Any] = {"clock": kind, "weekend_pause": pause}
    if kind == BANK:
        bank = _hours(raw, "bank_hours", 72, 1)
        fields["bank_hours"] = bank
        fields["increment_hours"] = _hours(raw, "increment_hours", 24, 1)
        fields["bank_cap_hours"] = _hours(raw, "cap_hours", max(168, bank), bank)
    return fields


LABELS = {
    "bank_hours": gettext_lazy("Time bank at the start (hours)"),
    "increment_hours": gettext_lazy("Increment (hours)"),
    "cap_hours": gettext_lazy("Largest bank (hours)"),
}
"""The clock's numbers as the create form labels them (the same words, so the same
translations): what a refusal names them by."""


def out_of_range(
    field: str, label: Any, low: int, most: int, value: Any, **extra: Any
) -> InvalidRequest:
    """The refusal of a number out of its range, naming the field by the create form's
    label, as a sentence: "Missed turns before a forfeit: 0 to 20, not 21." A person reads
    it on the form, in their language; an API client has the field's key in ``field``.
    Found by play-testing: the refusals named the API's keys, in French too ("max_timeouts
    va de 0 à 20 échéances manquées d'affilée, pas 21")."""
    return InvalidRequest(
        _("%(field)s: %(low)s to %(most)s, not %(value)s.")
        % {"field": label, "low": low, "most": most, "value": value},
        field=field,
        **extra,
    )


def _hours(raw: Mapping[str, Any], name: str, default: int, low: int) -> int:
    value = raw.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_BANK_HOURS:
        raise out_of_range(name, LABELS[name], low, MAX_BANK_HOURS, value)
    return value


def _by_order(seat: Seat) -> int:
    return seat.order


def clock_summary(
    game: Game, seats: Sequence[Seat] | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """The clock as the API and the pages show it: the settings, each player's bank (bank
    clock, in hours: ``hours`` when the current wait started, ``left_hours`` at ``now``,
    what the player waited on has left to act), the seats whose weekend stops the clock
    now (``stopped_for_weekend``, each bank's ``stopped`` too), and a pause the players
    asked for. ``seats``: the game's, with their users, if the caller read them (else
    ``game.seats``, prefetched or read, when the clock needs them).

    Found by play-testing: the page said "Cy 24.0 hours in the bank" for the whole turn,
    and nothing that the weekend held the clock."""
    now = now or timezone.now()
    summary: dict[str, Any] = {
        "kind": game.clock,
        "turn_hours": game.turn_hours,
        "weekend_pause": game.weekend_pause,
        "paused": game.paused_at is not None,
        "paused_by_players": game.paused_at is not None and bool(game.pause_votes),
        "pause_votes": list(game.pause_votes) if game.paused_at is None else [],
        "banks": [],
        "stopped_for_weekend": [],
    }
    if not needs_seats(game):
        return summary
    if seats is None:  # (a list of games prefetches them with their users)
        prefetched = "seats" in getattr(game, "_prefetched_objects_cache", {})
        seats = list(game.seats.all() if prefetched else game.seats.select_related("user"))
    people = sorted((s for s in seats if s.user_id is not None and not s.is_bot), key=_by_order)
    summary["stopped_for_weekend"] = [s.order for s in people if weekend_holds(game, s, now)]
    if game.clock == BANK:
        summary.update(
            bank_hours=game.bank_hours,
            increment_hours=game.increment_hours,
            cap_hours=game.bank_cap_hours,
            banks=[
                {
                    "seat": s.order,
                    "hours": _hours_of(bank_of(game, s)),
                    "left_hours": _hours_of(bank_now(game, s, now)),
                    "stopped": s.order in summary["stopped_for_weekend"],
                }
                for s in people
            ],
        )
    return summary


def _hours_of(time: timedelta) -> float:
    return round(time / timedelta(hours=1), 1)


def _waited_on(game: Game, seat: Seat) -> bool:
    """Whether the running game's clock runs for the seat's player now (or will, at the end
    of a vacation wait: then it has not started)."""
    return (
        game.status == Game.Status.ACTIVE
        and game.clock_started_at is not None
        and seat.to_act
        and seat.user_id is not None
        and not seat.is_bot
    )


def bank_now(game: Game, seat: Seat, now: datetime) -> timedelta:
    """The seat's bank at ``now``: while the game waits on the seat, less the clock time
    since the wait started (its weekends left out, a pause stopping it; not below zero),
    what :func:`settle_banks` would take if the player moved now."""
    bank = bank_of(game, seat)
    if not _waited_on(game, seat):
        return bank
    assert game.clock_started_at is not None
    end = min(now, game.paused_at) if game.paused_at is not None else now
    spent = running_time(game.clock_started_at, end, zone_for(game, seat))
    return max(bank - spent, timedelta(0))


def weekend_holds(game: Game, seat: Seat, now: datetime) -> bool:
    """Whether the weekend pause stops the seat's clock at ``now``: the game waits on the
    seat's player, whose weekend it is (Saturday and Sunday in their zone), and no pause of
    the players' or a vacation wait holds it already."""
    zone = zone_for(game, seat)
    if zone is None or not _waited_on(game, seat) or game.paused_at is not None:
        return False
    assert game.clock_started_at is not None
    return game.clock_started_at <= now and now.astimezone(zone).weekday() >= SATURDAY


SATURDAY = 5  # (``date.weekday()``: Monday is 0)


def clock_sentence(game: Game, seat: Seat | None, now: datetime | None = None) -> str:
    """The clock in one sentence for a player's email (their bank at ``now``, if they have
    one: what is left of it while the game waits on them, as the page says it)."""
    if game.clock == BANK:
        text = _(
            "Time bank: %(start)s hours to start, %(more)s more for each turn, at most %(cap)s."
        ) % {"start": game.bank_hours, "more": game.increment_hours, "cap": game.bank_cap_hours}
        if seat is not None and seat.user_id is not None and not seat.is_bot:
            hours = _hours_of(bank_now(game, seat, now or timezone.now()))
            text += " " + _("Your bank: %(hours)s hours.") % {"hours": hours}
    else:
        hours = game.turn_hours
        text = ngettext(
            "Fixed time: %(hours)s hour per turn.", "Fixed time: %(hours)s hours per turn.", hours
        ) % {"hours": hours}
    if game.weekend_pause:
        text += " " + _("The clock stops over your weekend.")
    return text


def end_vacation_wait(
    game: Game,
    waiting: Sequence[int],
    now: datetime,
    seats: Sequence[Seat] | None = None,
) -> None:
    """A move at ``now`` replaces the deadline: if it was a vacation wait that had not run
    out (``timeouts._next_deadline`` starts the clock of such a wait at the return, later than
    any move), give back to the away seats the time the game no longer waits for them.
    ``waiting``: the seats the game waited on before the move (the away seats it was
    charged for: the sweep left the game waiting on nobody else). So a seat pays only for
    the time the game actually waited."""
    if game.deadline is None:
        return
    unused = vacation_unused(game, now)
    if unused is None:  # a game from before clocks: a deadline beyond a turn was a wait
        unused = game.deadline - timedelta(hours=game.turn_hours) - now
    if unused <= timedelta(0):
        return
    if seats is None:
        seats = list(Seat.objects.filter(game=game, order__in=waiting))
    for seat in seats:
        if seat.order not in waiting or seat.user_id is None or seat.is_bot or seat.resigned:
            continue
        refund = min(unused, seat.vacation_used)
        if refund > timedelta(0):
            seat.vacation_used -= refund
            rows.update(seat, ["vacation_used"])
