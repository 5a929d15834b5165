"""Who gets which email after a move, a finished game or a nearing deadline, and the claim
that makes every email go out once, and never get lost.

:func:`notify_game` runs when the games announce committed moves (their outbox, drained by
a worker); the tasks in ``notifications.tasks`` call :func:`send_reminders` and
:func:`send_due`. Every email has a :class:`~notifications.models.Notification` row, unique
per (user, game, kind, key), created *before* sending: a retried or duplicated run finds it
and sends nothing. The claim is a lease (``due_at``): the email is stored on the row before
the SMTP conversation, so when a send fails (``failed``, retried with backoff) or the worker
dies mid-send (``sending`` past its lease), :func:`send_due` takes the row back with a
conditional UPDATE (one caller wins) and sends the same email, with the same Message-ID.
At worst a message that was in flight goes out twice; none is lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, F, Max, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from games import selectors
from games.models import ChatMessage, Game, Move, Seat, TradeOffer
from games.services import rows, talk
from games.services.clock import clock_sentence
from games.services.hooks import Batch
from games.services.lookups import engine_for
from games.services.naming import seat_label
from notifications import framing, leases, mailer
from notifications.choices import lead_times, muted_users, next_digest, quiet_end
from notifications.commands import shown_commands
from notifications.emails import render_email
from notifications.models import EmailPreference, GameMute, Notification

log = logging.getLogger(__name__)
T = TypeVar("T")

Kind = Notification.Kind
EVENTS_SHOWN = 30


@dataclass(frozen=True)
class Notice:
    seat: Seat
    kind: str
    key: str


# -- preferences ------------------------------------------------------------------------


def preference(user: Any) -> EmailPreference:
    """The user's choices (an unsaved all-on row when they never changed anything)."""
    try:
        pref: EmailPreference = user.email_preference
    except EmailPreference.DoesNotExist:
        return EmailPreference(user=user)
    return pref


def wants(user: Any, kind: str) -> bool:
    if not user.is_active or not user.email:
        return False
    pref = preference(user)
    if kind == Kind.REMINDER:
        return pref.reminders
    if kind == Kind.TURN and pref.digest:  # (their turns wait for the daily digest)
        return False
    return pref.turn_emails


def set_preferences(
    *, user: Any, turn_emails: bool, reminders: bool, **choices: Any
) -> EmailPreference:
    """Save the user's choices about game email (the settings page, the profile API).

    ``choices`` (issue 13, all optional): ``digest``, ``digest_hour``, ``quiet_from``,
    ``quiet_until``, ``remind_before`` (hours) and ``muted`` (game ids: the whole set of
    muted games). The next digest moment is set here, in the user's zone, so the hourly run
    reads only the players due.

    Choices that send game email end an unsubscription by an email's link (found by QA:
    ``unsubscribed_at`` stayed, and the league emails, which read it, stayed off for good)."""
    known = {"digest", "digest_hour", "quiet_from", "quiet_until", "remind_before"}
    defaults: dict[str, Any] = {"turn_emails": turn_emails, "reminders": reminders}
    if turn_emails or reminders:
        defaults["unsubscribed_at"] = None
    defaults.update({k: v for k, v in choices.items() if k in known})
    pref, _created = EmailPreference.objects.update_or_create(user=user, defaults=defaults)
    # The row just saved replaces the one ``preference`` kept on the user object (the
    # profile API read the old one back into its answer: found by play-testing).
    user.email_preference = pref
    _set_next_digest(pref, user.time_zone)
    if "muted" in choices:
        set_muted(user=user, game_ids=set(choices["muted"]))
    recheck_reminders(user)
    return pref


def follow_time_zone(*, user: Any) -> None:
    """The player's zone changed (the profile API; the settings page saves the choices with
    it, which does the same): their next digest is at their hour in the new zone. Left to
    the hourly run, Paris -> Tokyo lost a day's digest (found by play-testing)."""
    pref = EmailPreference.objects.filter(user=user).first()
    if pref is not None:
        _set_next_digest(pref, user.time_zone)


def _set_next_digest(pref: EmailPreference, zone_name: str) -> None:
    """The next digest moment at the player's hour in ``zone_name`` (none without the
    digest), so the hourly run reads only the players due."""
    digest_at = (
        next_digest(pref.digest_hour, zone_name, timezone.now())
        if pref.digest and pref.turn_emails
        else None
    )
    if digest_at != pref.digest_at:
        EmailPreference.objects.filter(pk=pref.pk).update(digest_at=digest_at)
        pref.digest_at = digest_at


def recheck_reminders(user: Any) -> None:
    """The player's lead times or their wish for reminders may have changed: the next
    reminder run looks at every seat of theirs a running game waits on (and moves each
    one's ``remind_at`` on to the new lead times)."""
    Seat.objects.filter(user=user, to_act=True, game__status=Game.Status.ACTIVE).update(
        remind_at=timezone.now()
    )


def muted_games(user: Any) -> list[Game]:
    """The games the user muted (newest first): the settings page names them."""
    return list(Game.objects.filter(mutes__user=user).order_by("-pk"))


def set_muted(*, user: Any, game_ids: set[int]) -> None:
    """Mute exactly these games for the user (unmute the others)."""
    GameMute.objects.filter(user=user).exclude(game_id__in=game_ids).delete()
    have = set(GameMute.objects.filter(user=user).values_list("game_id", flat=True))
    GameMute.objects.bulk_create([GameMute(user=user, game_id=g) for g in game_ids - have])


def may_unsubscribe(user_id: int) -> bool:
    """Whether the one-click link of ``user_id`` is one to honour: an account in use. A
    deleted (or deactivated) one gets no email, and its link must not write its email
    choices back after the deletion took them away (found by QA): it is refused like a bad
    link."""
    from accounts.models import User

    return User.objects.filter(pk=user_id, is_active=True).exists()


def language_of(user_id: int) -> str:
    """The language of the player ``user_id`` (their emails', so their unsubscribe page's);
    the site's default for one who chose none."""
    from accounts.models import User

    chosen = User.objects.filter(pk=user_id).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE


def unsubscribe(*, user_id: int) -> bool:
    """Turn every game email off for ``user_id`` (the one-click link); False: no such user,
    or not one in use (:func:`may_unsubscribe`)."""
    if not may_unsubscribe(user_id):
        return False
    EmailPreference.objects.update_or_create(
        user_id=user_id,
        defaults={
            "turn_emails": False,
            "reminders": False,
            "digest_at": None,  # (no digest either)
            "unsubscribed_at": timezone.now(),
        },
    )
    return True


# -- who gets what ----------------------------------------------------------------------


def _seats(game: Game) -> list[Seat]:
    """The game's seats in order, with their users and choices (once per game object)."""
    return _per_game(
        game,
        "seats",
        lambda: sorted(
            game.seats.select_related("user", "user__email_preference"), key=lambda s: s.order
        ),
    )


def _playing(seat: Seat) -> bool:
    """A person still playing the seat (not a bot, not resigned)."""
    return seat.user is not None and not seat.is_bot and not seat.resigned


TURN_BEGINS = {"lords-of-vegas": "turn", "vegas": "roll"}
"""The event that starts a seat's turn in each engine (``{"type": ..., "seat": order}``):
Lords of Vegas logs "turn", Vegas rolls the active seat's dice at the start of each turn."""

TOLD = (Notification.Status.SENT, Notification.Status.SENDING, Notification.Status.WAITING)
"""A 'your turn' row in these states told the player (a ``failed`` one told nobody; a
``waiting`` one tells them when their quiet hours end)."""


def _own(move: Mapping[str, Any], seat: Seat) -> bool:
    """A command the seat's player chose (a command the server played for them on a
    timeout, source ``system``, is not theirs)."""
    return bool(move["seat_id"] == seat.pk and move["source"] != Move.Source.SYSTEM)


def _newly_waiting(game: Game, seat: Seat) -> bool:
    """Whether the game waits on the seat for a new decision, one it has not been told of.

    True when the seat never got a 'your turn' email (sent, or being sent: a failed one
    told nobody), or when, since the last one, a turn of its own began (the engine's
    turn-start event for the seat in the log) or the seat acted and someone else (another
    seat, a bot, the server) moved after its last command: the game went elsewhere and
    came back. False while it still acts in the same turn after its own commands (Lords of
    Vegas: ``build``, ``sprawl`` ... before ``end``), and when another player moved but the
    seat did not (its pending decision is the same)."""
    last = None if seat.user_id is None else _told(game).get(seat.user_id)
    if last is None:
        return True
    primed = _moves_after(game, last)
    moves = (
        list(
            Move.objects.filter(game=game, seq__gt=last)
            .order_by("seq")
            .values("seq", "seat_id", "source", "events")
        )
        if primed is None
        else [
            {"seq": m.seq, "seat_id": m.seat_id, "source": m.source, "events": m.events}
            for m in primed
        ]
    )
    begins = TURN_BEGINS.get(game.game_type)
    if begins is None:  # an engine we know no turn event of: any own move is news
        return any(_own(m, seat) for m in moves)
    if any(
        isinstance(e, dict) and e.get("type") == begins and e.get("seat") == seat.order
        for m in moves
        for e in m["events"] or []
    ):
        return True
    own = [m["seq"] for m in moves if _own(m, seat)]
    return bool(own) and any(not _own(m, seat) for m in moves if m["seq"] > own[-1])


def _told(game: Game) -> dict[int, int]:
    """``{user id: version}``: the latest version before the current one at which each
    player of the game was told 'your turn' (read once per game, or per drain batch)."""
    return _per_game(game, "told", lambda: _read_told([game]).get(game.pk, {}))


def _read_told(games: list[Game]) -> dict[int, dict[int, int]]:
    before = Q()
    for game in games:
        before |= Q(game_id=game.pk, version__lt=game.version)
    rows = (
        Notification.objects.filter(before, kind=Kind.TURN, status__in=TOLD)
        .values("game_id", "user_id")
        .annotate(v=Max("version"))
        .values_list("game_id", "user_id", "v")
    )
    told: dict[int, dict[int, int]] = {}
    for game_id, user_id, version in rows:
        told.setdefault(game_id, {})[user_id] = version
    return told


def _per_game(game: Game, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per game object and version: what every email of one game asks
    (who forfeited, whether anyone talked) is read once for all its recipients, not once
    per recipient and per question (a drain run sends hundreds of emails)."""
    memo: dict[tuple[str, int], Any] = game.__dict__.setdefault("_notifications_memo", {})
    key = (name, game.version)
    if key not in memo:
        memo[key] = compute()
    return cast(T, memo[key])


def _prime(game: Game, name: str, value: Any) -> None:
    """Keep ``value`` as what :func:`_per_game` would compute for ``name`` (read for a
    whole drain batch)."""
    game.__dict__.setdefault("_notifications_memo", {})[(name, game.version)] = value


def _forfeited(game: Game) -> set[int]:
    """The seats (orders) that forfeited by missing deadlines (a resignation event with
    reason "timeouts" in the log)."""
    return _per_game(game, "forfeited", lambda: _read_forfeited(game))


def _read_forfeited(game: Game) -> set[int]:
    return _read_forfeits([game.pk]).get(game.pk, set())


def _read_forfeits(game_ids: list[int]) -> dict[int, set[int]]:
    resignations = Move.objects.filter(
        game_id__in=game_ids, source=Move.Source.SYSTEM, command__isnull=True
    ).values_list("game_id", "events")
    found: dict[int, set[int]] = {}
    for game_id, events in resignations:
        found.setdefault(game_id, set()).update(
            e["seat"]
            for e in events or []
            if isinstance(e, dict) and e.get("type") == "resign" and e.get("reason") == "timeouts"
        )
    return found


def _ended_by_forfeit(game: Game) -> int | None:
    """The seat (order) whose forfeit ended the game, if one did: the game ended by
    resignation (its rules did not end it) and its last move is that forfeit (the
    resignation path finishes the game right after logging it). None for a running game,
    one that ran to its end, or one a plain resignation ended."""
    if game.status != Game.Status.FINISHED or (game.outcome or {}).get("ended_by") != (
        "resignation"
    ):
        return None
    return _per_game(game, "ended by forfeit", lambda: _read_ended_by_forfeit(game))


def _read_ended_by_forfeit(game: Game) -> int | None:
    last = Move.objects.filter(game=game).order_by("-seq").values_list("events", flat=True).first()
    return next(
        (
            int(e["seat"])
            for e in last or []
            if isinstance(e, dict) and e.get("type") == "resign" and e.get("reason") == "timeouts"
        ),
        None,
    )


def notices_after_moves(game: Game, seats: list[Seat]) -> list[Notice]:
    """Game over: every person seated (resigned ones too) gets the result. Otherwise every
    person the game now waits on gets 'your turn' (once per version, and not again for a
    decision they were already told about). A person who forfeited by missing deadlines
    is told so once (key "forfeit"), and gets the result at the end."""
    forfeited = _forfeited(game)
    forfeits = [
        Notice(s, Kind.FORFEIT, "forfeit")
        for s in seats
        if s.order in forfeited and s.user is not None and wants(s.user, Kind.FORFEIT)
    ]
    if game.status == Game.Status.FINISHED:
        return [
            Notice(s, Kind.GAME_OVER, "end")
            for s in seats
            if s.user is not None and wants(s.user, Kind.GAME_OVER)
        ]
    if game.status != Game.Status.ACTIVE or game.state is None:
        return []
    waiting = set(engine_for(game).to_act(game.state))
    return forfeits + [
        Notice(s, Kind.TURN, f"v{game.version}")
        for s in seats
        if s.order in waiting
        and _playing(s)
        and wants(s.user, Kind.TURN)
        and _newly_waiting(game, s)
    ]


def notify_game(*, game_id: int, batch: Batch | None = None) -> int:
    """Send what the game's current position calls for (after moves were committed: the
    task runs after the commit, and always looks at the latest snapshot, so two tasks for
    close moves agree on one version). Returns how many emails were sent. With the drain's
    ``batch``, the game and what every one of its emails asks (seats, mutes, forfeits,
    talk, the 'your turn' already told) are read once for all the batch's games, when its
    first game is announced (its moves were committed before the claim: that snapshot has
    them)."""
    if batch is None:
        game = Game.objects.filter(pk=game_id).first()
    else:
        game = batch.kept("notifications", lambda: _read_batch(batch)).get(game_id)
    if game is None:
        return 0
    seats = _seats(game)
    return deliver(game, seats, notices_after_moves(game, seats))


def _read_batch(batch: Batch) -> dict[int, Game]:
    """The batch's games, each primed with what :func:`_per_game` would read for it."""
    games = Game.objects.in_bulk(list(batch.games))
    ids = list(games)
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=ids).select_related(
        "user", "user__email_preference"
    ):
        seats.setdefault(seat.game_id, []).append(seat)
    mutes: dict[int, set[int]] = {}
    for game_id, user_id in GameMute.objects.filter(game_id__in=ids).values_list(
        "game_id", "user_id"
    ):
        mutes.setdefault(game_id, set()).add(user_id)
    forfeits = _read_forfeits(ids)
    told = _read_told(list(games.values())) if games else {}
    talked = set(
        ChatMessage.objects.filter(game_id__in=ids)
        .order_by()
        .values_list("game_id", flat=True)
        .distinct()
    )
    traded = set(
        TradeOffer.objects.filter(game_id__in=ids, move__isnull=False)
        .order_by()
        .values_list("game_id", flat=True)
        .distinct()
    )
    for game_id, game in games.items():
        for seat in seats.get(game_id, []):
            seat.game = game  # (as ``game.seats`` leaves it)
        _prime(game, "seats", sorted(seats.get(game_id, []), key=lambda s: s.order))
        _prime(game, "muted", mutes.get(game_id, set()))
        _prime(game, "forfeited", forfeits.get(game_id, set()))
        _prime(game, "told", told.get(game_id, {}))
        _prime(game, "talked", game_id in talked)
        _prime(game, "traded", game_id in traded)
    _prime_moves(list(games.values()))
    return games


def _prime_moves(games: list[Game]) -> None:
    """For the seats the batch's games wait on (a 'your turn' goes to them): each one's
    latest moves (where "since your last move" starts) and the game's moves after that
    or after the last 'your turn' told to its player, whichever is older (the email's
    story, whether the decision is new), two queries for the whole batch instead of up to
    three per email. The other recipients' (a forfeit, the end of a game) are read per
    email."""
    waiting = {
        seat.pk: (game, seat)
        for game in games
        if game.status == Game.Status.ACTIVE
        for seat in _seats(game)
        if seat.to_act and _playing(seat)
    }
    if not waiting:
        return
    latest = _latest_seat_moves(list(waiting))
    after: dict[int, int] = {}
    for pk, (game, seat) in waiting.items():
        _primed_seat_moves(game)[pk] = latest[pk]
        last = _since_own_move(game, seat)[0]
        own = -1 if last is None else last
        told = None if seat.user_id is None else _told(game).get(seat.user_id)
        since = own if told is None else min(own, told)
        after[game.pk] = min(since, after.get(game.pk, since))
    read = Q()
    for game_id, since in after.items():
        read |= Q(game_id=game_id, seq__gt=since)
    moves: dict[int, list[Move]] = {game_id: [] for game_id in after}
    for move in Move.objects.filter(read).order_by("game_id", "seq"):
        moves[move.game_id].append(move)
    for game in games:
        if game.pk in after:
            _prime(game, "moves after", (after[game.pk], moves[game.pk]))


def _latest_seat_moves(seat_ids: list[int]) -> dict[int, list[tuple[Any, ...]]]:
    """Each seat's :data:`SEAT_MOVES_READ` latest moves, newest first, as
    :func:`_since_own_move` reads them for one seat."""
    newest = Window(RowNumber(), partition_by=[F("seat_id")], order_by=F("seq").desc())
    rows = (
        _seat_moves(seat_ids)
        .annotate(newest=newest)
        .filter(newest__lte=SEAT_MOVES_READ)
        .values_list("seat_id", *SEAT_MOVE_COLUMNS)
        .order_by("seat_id", "-seq")
    )
    found: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in seat_ids}
    for seat_id, *row in rows:
        found[seat_id].append(tuple(row))
    return found


def reminder_window(game: Game) -> timedelta:
    """The server's default reminder window for a game (a player who chose no lead time)."""
    hours = min(float(settings.NOTIFICATIONS_REMIND_BEFORE_HOURS), game.turn_hours / 2)
    return timedelta(hours=hours)


def reminder_lead(game: Game, leads: list[float], left: timedelta) -> float | None:
    """The player's lead time (hours) whose reminder is due with ``left`` until the
    deadline: the smallest one already reached (two reached at once send one reminder),
    among those no longer than half the turn (a reminder right after the 'your turn' email
    would say nothing new); None: none yet."""
    fitting = fitting_leads(game, leads)
    reached = [lead for lead in fitting if left <= timedelta(hours=lead)]
    return min(reached) if reached else None


REMINDER_BATCH = 1000
"""At most this many seats per reminder run (the next run, 5 minutes later, takes the rest)."""


def send_reminders(*, now: datetime | None = None, batch: int = REMINDER_BATCH) -> int:
    """Reminders at each player's lead times (``EmailPreference.remind_before``, else the
    server's ``NOTIFICATIONS_REMIND_BEFORE_HOURS``): one per deadline and lead time (key:
    the game version, the deadline, the lead; a deadline the timeout sweep pushed back for
    a vacation, without a new version, gets its own) to every person the game waits on.

    The run reads only the seats whose ``remind_at`` has come (a partial index: the work is
    the reminders due, not the games running, issue 15). A wait sets it half a turn before
    the deadline (``games.services.clock.schedule_reminders``); here each seat read gets
    its reminder if one of its lead times is reached, and ``remind_at`` moves on to its next
    lead time, or to nothing. A failed email is retried by :func:`send_due`."""
    now = now or timezone.now()
    due = list(
        Seat.objects.filter(remind_at__lte=now)
        .select_related("game", "user", "user__email_preference")
        .order_by("remind_at")[:batch]
    )
    by_game: dict[int, list[Notice]] = {}
    games: dict[int, Game] = {}
    following: list[tuple[Seat, datetime | None]] = []
    for seat in due:
        lead, after = _reminder_step(seat, now)
        following.append((seat, after))
        if lead is None or not wants(seat.user, Kind.REMINDER):
            continue
        game = seat.game
        assert game.deadline is not None
        key = f"v{game.version}-{int(game.deadline.timestamp())}-{lead:g}"
        games[game.pk] = game
        by_game.setdefault(game.pk, []).append(Notice(seat, Kind.REMINDER, key[:32]))
    sent = 0
    for game_id, notices in by_game.items():
        sent += deliver(games[game_id], _seats(games[game_id]), notices)
    for seat, after in following:  # (after the sending: a crash before it sends again)
        Seat.objects.filter(pk=seat.pk, remind_at=seat.remind_at).update(remind_at=after)
    return sent


def _reminder_step(seat: Seat, now: datetime) -> tuple[float | None, datetime | None]:
    """For a seat whose reminder moment came: the lead time (hours) of the reminder due now
    (None: none), and when to look again (its next lead time; None: no reminder left before
    this deadline, or the game no longer waits on a person there). Whether the player
    wants reminders at all is asked when sending: their choice may change."""
    game = seat.game
    deadline = game.deadline
    waiting = seat.to_act and game.status == Game.Status.ACTIVE and game.paused_at is None
    if not waiting or deadline is None or deadline <= now or not _playing(seat):
        return None, None
    fitting = fitting_leads(game, lead_times(preference(seat.user)))
    left = deadline - now
    lead = reminder_lead(game, fitting, left)
    later = [h for h in fitting if timedelta(hours=h) < left]
    return lead, (deadline - timedelta(hours=max(later))) if later else None


def fitting_leads(game: Game, leads: list[float]) -> list[float]:
    """The lead times used in this game: those no longer than half a turn (a reminder right
    after the 'your turn' email would say nothing new); none: half a turn."""
    return [lead for lead in leads if lead <= game.turn_hours / 2] or [game.turn_hours / 2]


# -- claim and send (the lease, the tries: notifications.leases) ------------------------


def claim(
    game: Game,
    notice: Notice,
    *,
    verdict: dict[str, Any] | None = None,
    message: EmailMultiAlternatives | None = None,
) -> Notification | None:
    """The row for this email if this caller may send it now, else None (sent, or being
    sent by someone else under a live lease). A failed row, or one whose sender's lease
    lapsed, is taken back by one caller only. ``verdict`` (an answer's) is recorded on the
    row when it is created, before anything is sent; so is ``message``, the email already
    composed (stored by the INSERT itself: one UPDATE less than :func:`store` after it). A
    row taken back keeps what it holds."""
    assert notice.seat.user_id is not None
    now = timezone.now()
    which = {"user_id": notice.seat.user_id, "game": game, "kind": notice.kind, "key": notice.key}
    note = Notification(
        **which,
        seat=notice.seat,
        version=game.version,
        verdict=verdict,
        due_at=now + leases.lease(),
        **({} if message is None else _stored(message)),
    )
    if _inserted(note):  # (the usual case: a new email, one statement)
        return note
    # The row exists: this email was claimed before.
    pk = Notification.objects.filter(**which).values_list("pk", flat=True).get()
    takeable = Q(status=Notification.Status.FAILED) | Q(
        status=Notification.Status.SENDING, due_at__lte=now
    )
    return take_back(pk, takeable, now)


def _inserted(note: Notification) -> bool:
    """Create the claim's row unless it exists (True: created). Inside a caller's
    transaction (the web process, an inbound email) in a savepoint, so that a row the
    database refuses for another reason leaves that transaction usable; alone (the worker's
    autocommit) the statement is its own transaction."""
    if transaction.get_connection().in_atomic_block:
        with transaction.atomic():
            return rows.insert_new(note)
    return rows.insert_new(note)


def take_back(pk: int, condition: Q, now: datetime) -> Notification | None:
    """Claim row ``pk`` again if ``condition`` still holds (a conditional UPDATE: of callers
    racing for it, one wins); the row, or None."""
    rows = Notification.objects.filter(condition, pk=pk)
    taken = leases.take(rows, now, status=Notification.Status.SENDING)
    return Notification.objects.get(pk=pk) if taken else None


def store(note: Notification, message: EmailMultiAlternatives) -> None:
    """Keep the email on its row before it is sent, so a resend is the same email."""
    fields = _stored(message)
    for name, value in fields.items():
        setattr(note, name, value)
    Notification.objects.filter(pk=note.pk).update(**fields)


def _stored(message: EmailMultiAlternatives) -> dict[str, Any]:
    """The row's fields that keep ``message``."""
    html = next((body for body, kind in message.alternatives if kind == "text/html"), "")
    return {
        "subject": str(message.subject)[:300],
        "body_text": str(message.body),
        "body_html": str(html),
        "message_id": str(message.extra_headers.get("Message-ID", "")),
        "headers": {
            "From": message.from_email,
            "To": list(message.to),
            "Reply-To": list(message.reply_to),
            **{k: str(v) for k, v in message.extra_headers.items()},
        },
    }


def stored_message(note: Notification) -> EmailMultiAlternatives:
    """The email kept on the row, ready to send again (same headers, same Message-ID)."""
    extra = {k: v for k, v in note.headers.items() if k not in ("From", "To", "Reply-To")}
    message = EmailMultiAlternatives(
        subject=note.subject,
        body=note.body_text,
        from_email=note.headers.get("From") or settings.DEFAULT_FROM_EMAIL,
        to=note.headers.get("To") or [],
        reply_to=note.headers.get("Reply-To") or [],
        headers=extra,
    )
    if note.body_html:
        message.attach_alternative(note.body_html, "text/html")
    return message


SENT_FIELDS = ("status", "sent_at", "due_at", "body_html", "error")
"""What a sent email's row changes (written without the ORM's query building: once per
email in a drain run)."""


def send_stored(note: Notification) -> bool:
    """Send the row's stored email; mark it sent, or failed with its next try. True: sent."""
    try:
        mailer.send(stored_message(note))
    except Exception as exc:
        log.exception("%s email %s for game #%s failed", note.kind, note.key, note.game_id)
        failed(note, exc)
        return False
    note.status, note.sent_at, note.due_at = Notification.Status.SENT, timezone.now(), None
    note.body_html = ""  # the text stays (the player's data); the HTML served its resends
    note.error = ""
    rows.update(note, SENT_FIELDS)  # (one per email, right after the server's answer: 0012)
    return True


def failed(note: Notification, exc: Exception) -> None:
    """Mark the row failed, due again after the backoff (or given up after the last try)."""
    due = leases.next_try(note.attempts, timezone.now())
    if due is None:
        log.error("%s email %s for game #%s given up", note.kind, note.key, note.game_id)
    Notification.objects.filter(pk=note.pk).update(
        status=Notification.Status.FAILED, error=repr(exc)[:1000], due_at=due
    )


def deliver(game: Game, seats: list[Seat], notices: list[Notice]) -> int:
    """Claim, compose, store and send each notice; how many were sent. A failure marks its
    row for :func:`send_due` and does not stop the others. A muted game sends nothing; a
    notice in its recipient's quiet hours is stored and waits for their end (:func:`hold`)."""
    sent = 0
    muted = _per_game(game, "muted", lambda: muted_users(game.pk)) if notices else set()
    for notice in notices:
        if notice.seat.user_id in muted:
            continue
        # A 'your turn' (a new version: almost always a new row) is composed first, and
        # its claim's INSERT stores it; the others (a forfeit's "forfeit" key is asked
        # again at every move) are composed only once claimed.
        early = notice.kind == Kind.TURN
        message, error = _composed(game, seats, notice) if early else (None, None)
        note = claim(game, notice, message=message)
        if note is None:
            continue
        if not note.subject:  # (a row taken back may hold its email already)
            if message is None and error is None:
                message, error = _composed(game, seats, notice)
            if message is None:
                failed(note, error or RuntimeError("not composed"))
                continue
            store(note, message)
        if hold(note, notice.seat.user, deadline=_deadline_of(game, notice)):
            continue
        sent += send_stored(note)
    return sent


def _deadline_of(game: Game, notice: Notice) -> datetime | None:
    """The deadline a reminder is about (None for any other email)."""
    return game.deadline if notice.kind == Kind.REMINDER else None


def _composed(
    game: Game, seats: list[Seat], notice: Notice
) -> tuple[EmailMultiAlternatives | None, Exception | None]:
    """The notice's email, or the reason it could not be composed (logged)."""
    try:
        return compose(game, seats, notice), None
    except Exception as exc:
        log.exception("%s email for game #%s not composed", notice.kind, game.pk)
        return None, exc


def hold(
    note: Notification, user: Any, now: datetime | None = None, deadline: datetime | None = None
) -> bool:
    """Keep a stored email until the end of the recipient's quiet hours, if it is within
    them: ``waiting``, due then (:func:`send_due` sends it). True: held (or dropped). An
    answer to the player's own reply is never held (they are awake: they just wrote). A
    reminder of ``deadline`` that quiet hours would hold until the deadline or later is
    dropped: it would come when there is nothing left to remind of (a deadline is moved out
    of the player's quiet hours, so it often falls right at their end)."""
    if note.kind in (Kind.ANSWER, Kind.DIGEST_ANSWER) or user is None:
        return False
    until = quiet_end(preference(user), user.time_zone, now or timezone.now())
    if until is None:
        return False
    if deadline is not None and until >= deadline:
        drop(note.pk)
        return True
    Notification.objects.filter(pk=note.pk).update(status=Notification.Status.WAITING, due_at=until)
    return True


def drop(pk: int) -> None:
    """The email of row ``pk`` is not to be sent: it is out of date."""
    Notification.objects.filter(pk=pk).update(status=Notification.Status.DROPPED, due_at=None)


def still_true(note: Notification, now: datetime) -> bool:
    """Whether a 'your turn' or a reminder still says something true when it can go at last
    (at the end of the player's quiet hours, or on a retry): the game still runs and still
    waits on the seat; a reminder's deadline is still ahead, and still the one it named
    (the version it was about). Any other email stays true (a result, an answer)."""
    if note.kind not in (Kind.TURN, Kind.REMINDER):
        return True
    game, seat = note.game, note.seat
    if game is None or seat is None or game.status != Game.Status.ACTIVE or not seat.to_act:
        return False
    if note.kind == Kind.REMINDER:
        return (
            game.version == note.version
            and game.paused_at is None
            and game.deadline is not None
            and game.deadline > now
        )
    return True


def send_due(*, now: datetime | None = None, batch: int = 100) -> int:
    """Send again every email whose retry is due or whose sender's lease lapsed (the
    periodic task); how many were sent. Each row is taken back by one caller only."""
    now = now or timezone.now()
    waiting = (
        Q(status=Notification.Status.FAILED)
        | Q(status=Notification.Status.SENDING)
        | Q(status=Notification.Status.WAITING)  # (quiet hours over)
    )
    due = list(
        Notification.objects.filter(waiting, due_at__lte=now)
        .order_by("due_at")
        .values_list("pk", flat=True)[:batch]
    )
    sent = 0
    for pk in due:
        note = take_back(pk, waiting & Q(due_at__lte=now), now)
        if note is None:
            continue
        if not still_true(note, now):
            drop(note.pk)
            continue
        if not note.subject and not _compose_again(note):
            continue
        sent += send_stored(note)
    return sent


def _compose_again(note: Notification) -> bool:
    """A row whose sender died before its email was stored: compose it now (nothing was
    sent). An answer to a reply cannot be: the reply's redelivery answers it; nor can an
    email about no one game (the digest: its next run tells the player)."""
    if note.game is None:
        Notification.objects.filter(pk=note.pk).update(
            status=Notification.Status.FAILED, due_at=None, error="nothing stored to resend"
        )
        return False
    seats = _seats(note.game)
    seat = next((s for s in seats if s.pk == note.seat_id), None)
    if note.kind == Kind.ANSWER or seat is None:
        Notification.objects.filter(pk=note.pk).update(
            status=Notification.Status.FAILED, due_at=None, error="nothing stored to resend"
        )
        return False
    try:
        store(note, compose(note.game, seats, Notice(seat, note.kind, note.key)))
    except Exception as exc:
        log.exception("%s email %s for game #%s not composed", note.kind, note.key, note.game_id)
        failed(note, exc)
        return False
    return True


# -- what the email says ----------------------------------------------------------------


def compose(game: Game, seats: list[Seat], notice: Notice) -> Any:
    """The email for one notice, every word in its recipient's language (the engine's
    sentences and board too: they are rendered while that language is active)."""
    user = notice.seat.user
    assert user is not None
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language):
        context = email_context(game, seats, notice.seat, notice.kind)
    return render_email(
        notice.kind,
        context,
        to=user.email,
        language=language,
        time_zone=user.time_zone,
        game_id=game.pk,
        seat_id=notice.seat.pk,
        user_id=user.pk,
    )


def email_context(game: Game, seats: list[Seat], seat: Seat, kind: str) -> dict[str, Any]:
    """What a player needs, as they may see it: the view of their seat (hidden information
    removed by the engine), what happened since their last move (at the end: from their
    last move on, which may be the one that ended the game), what the server played for
    them when they missed a deadline, forfeits, their commands."""
    user = seat.user
    engine = engine_for(game)
    view = selectors.game_view(game=game, user=user, seats=seats)
    others = [s.name for s in seats if s.pk != seat.pk]
    last, last_at, played = _since_own_move(game, seat)
    events, omitted = _events_since(game, seats, seat, user, last, kind == Kind.GAME_OVER)
    return {
        "game": game,
        "game_name": engine.name,
        "name": seat.name,
        "others": others,
        "players": [
            {
                "colour": str(engine.colour_name(s.colour)) if s.colour else "",
                "name": s.name,
                "you": s.pk == seat.pk,
                "bot": s.is_bot,
            }
            for s in seats
        ],
        "waiting_on": [s.name for s in seats if s.order in view["to_act"] and s.pk != seat.pk],
        "deadline": game.deadline,
        "clock": clock_sentence(game, seat),
        "events": events,
        "final": kind == Kind.GAME_OVER,
        "first": last is None,
        "events_omitted": omitted,
        "missed": _missed(game, seat, played),
        "board": _final_board(game, engine, view) if kind == Kind.GAME_OVER else view["text"],
        "changed_lots": []
        if kind == Kind.GAME_OVER
        else selectors.changed_lots(game=game, user=user),
        **shown_commands(engine, view["legal_commands"]),
        "asked": _asked(view, seats, seat),
        "placings": _placings(game, seats, seat),
        "winners": [s.name for s in seats if s.order in (game.outcome or {}).get("winners", [])],
        "you_won": seat.order in (game.outcome or {}).get("winners", []),
        "said": _said(game, seat, last_at),
        # (the league and season of a season's game: the start and game-over emails say it)
        "frame": framing.line(game) if kind in (Kind.STARTED, Kind.GAME_OVER) else "",
    }


def _asked(view: Mapping[str, Any], seats: list[Seat], seat: Seat) -> dict[str, Any] | None:
    """The decision the game waits for from the seat on another player's turn (Lords of
    Vegas: the engine's view lists them as ``pending``, ``turn`` is the active seat): its
    'your turn' email asks it in the subject and first line. A boss asked to lay off half
    of a bet read "It is your turn", while the table marked the gambler to play (found by
    play-testing). None on the seat's own turn, or when nothing is asked of it."""
    shown = view.get("view") or {}
    pending = shown.get("pending") if isinstance(shown, dict) else None
    if not pending or shown.get("turn") == seat.order:
        return None
    asked = next((d for d in pending if d.get("seat") == seat.order), None)
    if asked is None:
        return None
    gambler = {s.order: s for s in seats}.get(asked.get("gambler", -1))
    layoff = asked.get("kind") == "layoff" and gambler is not None
    return {"gambler": seat_label(gambler) if layoff and gambler is not None else ""}


AT_REST: dict[str, dict[str, Any]] = {
    "lords-of-vegas": {"over": True, "pending": []},
    "vegas": {"roll": None},
}
"""What each engine's view says the game waits for, taken away: Lords of Vegas's pending
decisions and its turn marker (which an ended view has not), Vegas's roll and the numbers
it offers. A game that resignations or forfeits ended (its rules did not) stopped with a
seat to act, and its game-over email must not close on a move prompt ("Blue rolled 3 5
5 5 6 6. Place one number: ..."); found by play-testing."""


def _final_board(game: Game, engine: Any, view: Mapping[str, Any]) -> str:
    """The board of a game-over email: the seat's view as the game stopped, without what
    the game waited for when resignations or forfeits ended it (:data:`AT_REST`)."""
    ended_early = (game.outcome or {}).get("ended_by") == "resignation"
    if not ended_early or view["view"] is None or game.game_type not in AT_REST:
        return str(view["text"])
    return str(engine.render_text({**view["view"], **AT_REST[game.game_type]}))


def _traded(game: Game) -> bool:
    """Whether a trade offer of the game was ever executed (its moves' sentences then say
    who proposed and accepted it; once per game, or per drain batch)."""
    return _per_game(
        game,
        "traded",
        lambda: TradeOffer.objects.filter(game=game, move__isnull=False).exists(),
    )


def _talked(game: Game) -> bool:
    """Whether anyone ever wrote at the game's table (once per game, or per drain batch)."""
    return _per_game(game, "talked", lambda: ChatMessage.objects.filter(game=game).exists())


def _said(game: Game, seat: Seat, since: datetime | None) -> list[dict[str, Any]]:
    """What the others said to the player since their last own move (``since``: its time;
    table talk, issue 11: to the table or privately to them; muted players and hidden
    messages left out). A game where nobody ever talked (most) costs one query for all
    its emails."""
    if not _talked(game):
        return []
    return [
        {"who": seat_label(m.written_by), "private": m.to_id is not None, "text": m.text}
        for m in talk.said_since(seat, since)
    ]


SEAT_MOVES_READ = 32
"""The seat's latest moves read at once to find its player's last own move (one query in
the usual case; a seat with more system moves since reads the rest with two more)."""
SEAT_MOVE_COLUMNS = ("seq", "created_at", "source", "text", "commanded")


def _since_own_move(game: Game, seat: Seat) -> tuple[int | None, datetime | None, list[str]]:
    """The seq and time of the seat's player's last own command (not one the server
    played for them on a timeout, nor their resignation): what "since your last move"
    counts from (None, None: they have not moved); and the commands the server played
    for them since (their missed deadlines), oldest first. One query for both in the
    usual case: the seat's latest moves, newest first, down to its last own one."""
    system = Move.Source.SYSTEM
    rows = _primed_seat_moves(game).get(seat.pk)
    if rows is None:
        rows = list(_seat_moves([seat.pk]).filter(game=game).order_by("-seq")[:SEAT_MOVES_READ])
    own = next((r for r in rows if r[2] != system), None)
    if own is None and len(rows) == SEAT_MOVES_READ:  # (a long run of misses: read it all)
        mine = Move.objects.filter(game=game, seat=seat).exclude(source=system)
        found = mine.order_by("-seq").values_list("seq", "created_at").first()
        after = -1 if found is None else found[0]
        rows = list(_seat_moves([seat.pk]).filter(game=game, seq__gt=after).order_by("-seq"))
        own = None if found is None else (found[0], found[1], None, "", False)
    last = None if own is None else int(own[0])
    played = [
        r[3] for r in reversed(rows) if r[2] == system and r[4] and (last is None or r[0] > last)
    ]
    return (None, None, played) if own is None else (last, own[1], played)


def _primed_seat_moves(game: Game) -> dict[int, list[tuple[Any, ...]]]:
    """``{seat pk: its latest moves}`` read for the drain's batch (empty without one)."""
    return _per_game(game, "seat moves", dict)


def _seat_moves(seat_ids: list[int]) -> QuerySet[Move, tuple[Any, ...]]:
    """The moves of the seats: seq, time, source, text and whether a command was played
    (newest first once ordered)."""
    commanded = ExpressionWrapper(Q(command__isnull=False), output_field=BooleanField())
    moves = Move.objects.filter(seat_id__in=seat_ids).annotate(commanded=commanded)
    return moves.values_list(*SEAT_MOVE_COLUMNS)


def _missed(game: Game, seat: Seat, played: list[str]) -> dict[str, Any] | None:
    """The deadlines the player missed since their last own move (``played``: the commands
    the server played for them), the misses in a row, and whether they forfeited (None:
    none missed). At the end (``over``) the email says what came of the forfeit: it ended
    the game (``ended_it``), or a bot played the seat to the end; not that a bot "plays"
    it (found by play-testing: a two-player game's result said so)."""
    forfeited = seat.order in _forfeited(game)
    if not played and not forfeited:
        return None
    return {
        "commands": played,
        "in_a_row": seat.timeouts_in_a_row,
        "limit": game.max_timeouts,
        "forfeited": forfeited,
        "over": game.status == Game.Status.FINISHED,
        "ended_it": forfeited and _ended_by_forfeit(game) == seat.order,
    }


def _events_since(
    game: Game, seats: list[Seat], seat: Seat, user: Any, last: int | None, including_it: bool
) -> tuple[list[str], int]:
    """The sentences of the moves after the player's last own move (from it, at the end); a
    forfeit is said as one (the log's sentence only says "resigned")."""
    since = -1 if last is None else last - 1 if including_it else last
    moves = selectors.moves_since(
        game=game,
        since=since,
        user=user,
        seats=seats,
        traded=_traded(game),
        moves=_moves_after(game, since),
    )
    by_order = {s.order: s for s in seats}
    sentences: list[tuple[Any, str]] = []
    timed_out = None  # the seat the server is playing for in the moves just read
    for m in moves:
        if m.get("credit"):  # a trade: who proposed it, who accepted it (issue 11)
            sentences.append((None, m["credit"]))
        late = _played_on_timeout(m)
        if late is not None and late != timed_out:
            sentences.append((None, _timeout_sentence(by_order.get(late), seat)))
        timed_out = late
        for event, sentence in zip(m["events"], m["described"], strict=False):
            if isinstance(event, dict) and event.get("reason") == "timeouts":
                forfeiter = by_order.get(event["seat"]) if "seat" in event else None
                ended = "seat" in event and _ended_by_forfeit(game) == event["seat"]
                sentence = _forfeit_sentence(game, forfeiter, seat, ended=ended)
            sentences.append((event, sentence))
    return kept_events(sentences, seat.order, newest=True)


KEPT_EVENTS = frozenset({"scored", "game_end"})
"""Events an email shows however many there are (with the reader's own: ``seat``)."""


def kept_events(
    told: list[tuple[Any, str]], reader: int, *, newest: bool, limit: int = EVENTS_SHOWN
) -> tuple[list[str], int]:
    """The sentences an email shows of ``told`` ((event, sentence) pairs, in order) and how
    many it leaves out: every one about the reader (their points, their money: the event's
    ``seat``) and every score and end of the game, then the others up to ``limit`` in all,
    the newest (or, ``newest=False``, the first) ones. A confirmation cut after 15 lines
    hid the player's own 5 points (found by play-testing)."""
    must = {
        index
        for index, (event, _sentence) in enumerate(told)
        if isinstance(event, dict)
        and (event.get("seat") == reader or event.get("type") in KEPT_EVENTS)
    }
    others = [index for index in range(len(told)) if index not in must]
    room = max(0, limit - len(must))
    chosen = others[len(others) - room :] if newest and room else others[:room]
    shown = sorted(must | set(chosen))
    return [told[index][1] for index in shown], len(told) - len(shown)


def _moves_after(game: Game, since: int) -> list[Move] | None:
    """The game's moves after ``since``, in order, if the drain's batch read them (None:
    not read, or not from that far back)."""
    primed: tuple[int, list[Move]] | None = _per_game(game, "moves after", lambda: None)
    if primed is None or primed[0] > since:
        return None
    return [m for m in primed[1] if m.seq > since]


def _played_on_timeout(move: Mapping[str, Any]) -> int | None:
    """The seat (order) the server played the move for at a missed deadline (a command of
    a seat's, source ``system``: ``games.services.timeouts``), else None. The others must
    not take it for the player's own choice."""
    if move["source"] != Move.Source.SYSTEM or move["command"] is None:
        return None
    seat: int | None = move["seat"]
    return seat


def _timeout_sentence(late: Seat | None, reader: Seat) -> str:
    """Said once before the moves the server played for a late seat, in the reader's
    language (active while composing)."""
    if late is not None and late.pk == reader.pk:
        return gettext("You missed the deadline: the server played for you.")
    name = late.name if late is not None else gettext("A player")
    return gettext("%(name)s missed the deadline: the server played for them.") % {"name": name}


def _forfeit_sentence(
    game: Game, forfeiter: Seat | None, reader: Seat, *, ended: bool = False
) -> str:
    """Like the log's other sentences, in the reader's language (active while composing).
    ``ended``: the forfeit ended the game (too few players left), so no bot plays on."""
    n = game.max_timeouts
    you = forfeiter is not None and forfeiter.pk == reader.pk
    name = forfeiter.name if forfeiter is not None else gettext("A player")
    if ended and you:
        return ngettext(
            "You missed the deadline and forfeited, which ended the game.",
            "You missed %(n)s deadlines in a row and forfeited, which ended the game.",
            n,
        ) % {"n": n}
    if ended:
        return ngettext(
            "%(name)s missed the deadline and forfeited, which ended the game.",
            "%(name)s missed %(n)s deadlines in a row and forfeited, which ended the game.",
            n,
        ) % {"n": n, "name": name}
    if you:
        return ngettext(
            "You missed the deadline and forfeited: a bot plays your seat on.",
            "You missed %(n)s deadlines in a row and forfeited: a bot plays your seat on.",
            n,
        ) % {"n": n}
    return ngettext(
        "%(name)s missed the deadline and forfeited: a bot plays the seat on.",
        "%(name)s missed %(n)s deadlines in a row and forfeited: a bot plays the seat on.",
        n,
    ) % {"n": n, "name": name}


def _placings(game: Game, seats: list[Seat], seat: Seat) -> list[dict[str, Any]]:
    """The result's rows; a seat that resigned by missing deadlines is said to have
    forfeited (found by play-testing: "resigned" told the others he gave up)."""
    by_order = {s.order: s for s in seats}
    forfeited = _forfeited(game)
    rows = []
    for p in (game.outcome or {}).get("placings", []):
        placed = by_order.get(p["seat"])
        rows.append(
            {
                "rank": p["rank"],
                "name": placed.name if placed is not None else f"seat {p['seat']}",
                "you": placed is not None and placed.pk == seat.pk,
                "resigned": bool(p.get("resigned")),
                "forfeited": bool(p.get("resigned")) and p["seat"] in forfeited,
            }
        )
    return rows
