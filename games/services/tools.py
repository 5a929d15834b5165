"""The game tools: extend a deadline, pause and resume, replace a player, abort.

Who may: the staff on any game; a league's admins on their league's games, which the
leagues app decides (the games app knows nothing of leagues): it calls these with
``by=`` the acting person and ``authorized=True`` once it has checked. Each tool runs
in one transaction holding the game row lock (:func:`~games.services.lookups.lock_game`,
as every writer), and records who, when and why as a system Move in the append-only log
(no command: the replay skips it), so the game's log shows it and it can never be
changed. See docs/decisions/0014-league-admins.md.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks import cast_vote
from games.models import ChatMute, Game, Move, Seat
from games.services import clock
from games.services.errors import GameNotActive, InvalidRequest, NotAllowed
from games.services.games import MAX_TURN_HOURS
from games.services.lookups import (
    copy_into,
    engine_for,
    lock_game,
    not_active,
    require_signed_in,
    seat_of,
)
from games.services.movelog import Entry, append_moves
from games.services.moves import commit_commands, notify_after_commit
from games.services.trades import close_offers_of

MAX_WHY = 500
TOOLS = ("extend", "pause", "resume", "replace", "abort")


def _allow(game: Game, by: Any, authorized: bool) -> None:
    """Staff always; anyone else only when the caller (a league) has decided they may."""
    require_signed_in(by)
    if not (authorized or by.is_staff):
        raise NotAllowed(
            _("only the staff or an admin of its league may use the tools on game #%(game)s")
            % {"game": game.pk}
        )


def _why(why: str) -> str:
    text = " ".join((why or "").split())
    if not text:
        raise InvalidRequest(_("say why: the players read it in the game's log"))
    if len(text) > MAX_WHY:
        raise InvalidRequest(_("the reason has at most %(most)s characters") % {"most": MAX_WHY})
    return text


def _record(
    game: Game, by: Any, tool: str, why: str, on_seat: Seat | None = None, **extra: Any
) -> Move:
    """The tool's entry in the log: who (id and name then), what, why; the Move's
    ``created_at`` is when."""
    event = {"type": "tool", "tool": tool, "by": by.pk, "by_name": _kept(by), "why": why, **extra}
    (move,) = append_moves(game, [Entry(on_seat, None, tool, [event], Move.Source.SYSTEM)])
    game.save(update_fields=["version"])
    notify_after_commit(game, [move])
    return move


def _kept(user: Any) -> str:
    """The name the log keeps of a person: their display name then. An account without
    one keeps none, and each reader sees "Player 12" in their own language (a name kept in
    the actor's language, or the address's part before the @ it once was, would be read by
    everyone: decision 0030)."""
    return str(user.display_name)


def _running(game: Game | int, by: Any, authorized: bool) -> Game:
    locked = lock_game(game)
    _allow(locked, by, authorized)
    if locked.status != Game.Status.ACTIVE:  # (paused is fine: the tools work on it)
        raise GameNotActive(not_active(locked), status_now=locked.status)
    return locked


def _done(game: Game | int, locked: Game, move: Move) -> Move:
    if isinstance(game, Game):
        copy_into(game, locked)
    return move


def extend_deadline(
    *, game: Game | int, by: Any, hours: int, why: str, authorized: bool = False
) -> Move:
    """Give the players ``hours`` more on the running deadline (on the time left, if the
    game is paused)."""
    why = _why(why)
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_TURN_HOURS:
        raise InvalidRequest(
            _("extend by 1 to %(most)s hours, not %(value)s")
            % {"most": MAX_TURN_HOURS, "value": hours}
        )
    with transaction.atomic():
        locked = _running(game, by, authorized)
        more = timedelta(hours=hours)
        if locked.paused_at is not None:
            locked.paused_left = (locked.paused_left or timedelta(0)) + more
        else:
            locked.deadline = (locked.deadline or timezone.now()) + more
        locked.save(update_fields=["deadline", "paused_left"])
        move = _record(locked, by, "extend", why, hours=hours)
    return _done(game, locked, move)


def pause_game(*, game: Game | int, by: Any, why: str, authorized: bool = False) -> Move:
    """Stop the clock: no deadline runs (the timeout sweep passes the game by) and no move
    is taken until it resumes; the time left is kept."""
    why = _why(why)
    with transaction.atomic():
        locked = _running(game, by, authorized)
        if locked.paused_at is not None:
            raise InvalidRequest(_("game #%(game)s is paused already") % {"game": locked.pk})
        locked.pause_votes = []  # a staff pause: the players do not end it
        _stop_clock(locked, timezone.now())
        move = _record(locked, by, "pause", why)
    return _done(game, locked, move)


def _stop_clock(locked: Game, now: datetime) -> None:
    """Pause: keep the time the deadline has left; no deadline runs."""
    left = (locked.deadline - now) if locked.deadline else timedelta(hours=locked.turn_hours)
    locked.paused_left = max(left, timedelta(0))
    locked.paused_at = now
    locked.deadline = None
    locked.save(update_fields=["paused_at", "paused_left", "deadline", "pause_votes"])


def _start_clock(locked: Game, now: datetime) -> None:
    """Resume with the time the deadline had left; the time paused is not charged to any
    time bank (the wait's clock start moves on by as long)."""
    locked.deadline = now + (locked.paused_left or timedelta(0))
    if locked.clock_started_at is not None and locked.paused_at is not None:
        locked.clock_started_at += now - locked.paused_at
    locked.paused_at = None
    locked.paused_left = None
    locked.pause_votes = []
    locked.save(
        update_fields=["paused_at", "paused_left", "deadline", "clock_started_at", "pause_votes"]
    )
    clock.schedule_reminders(locked, locked.deadline)  # (the seats flagged to act)


def resume_game(*, game: Game | int, by: Any, why: str, authorized: bool = False) -> Move:
    """Start the clock again with the time the deadline had left when it was paused."""
    why = _why(why)
    with transaction.atomic():
        locked = lock_game(game)
        _allow(locked, by, authorized)
        if locked.status != Game.Status.ACTIVE or locked.paused_at is None:
            raise InvalidRequest(_("game #%(game)s is not paused") % {"game": locked.pk})
        _start_clock(locked, timezone.now())
        move = _record(locked, by, "resume", why)
    return _done(game, locked, move)


def replace_player(
    *,
    game: Game | int,
    by: Any,
    seat: int,
    why: str,
    substitute: Any = None,
    bot: str = "",
    authorized: bool = False,
) -> Move:
    """Seat ``seat`` (its order) is played on by ``substitute`` (a person not seated in the
    game) or by ``bot``: the seat keeps its colour, its holdings and its place; only who
    plays it changes. The result of the seat goes to whoever holds it at the end."""
    why = _why(why)
    if (substitute is None) == (not bot):
        raise InvalidRequest(_("replace a player by one substitute or by a bot"))
    with transaction.atomic():
        locked = _running(game, by, authorized)
        if locked.paused_at is not None:
            raise InvalidRequest(
                _("game #%(game)s is paused: resume it, then replace a player")
                % {"game": locked.pk}
            )
        engine = engine_for(locked)
        target = locked.seats.select_related("user").filter(order=seat).first()
        if target is None:
            raise InvalidRequest(
                _("game #%(game)s has no seat %(seat)s") % {"game": locked.pk, "seat": seat}
            )
        before_user = target.user_id
        before = _kept(target.user) if target.user is not None else target.name
        before_bot = target.bot if target.user is None else ""
        now = timezone.now()
        if bot:
            if bot not in engine.bots:
                raise InvalidRequest(
                    _("no bot '%(bot)s'; known: %(known)s")
                    % {"bot": bot, "known": ", ".join(engine.bots)}
                )
            target.user, target.bot = None, bot
        else:
            if locked.seats.filter(user=substitute).exists():
                raise InvalidRequest(
                    _("%(name)s is already seated in game #%(game)s")
                    % {"name": substitute.name, "game": locked.pk}
                )
            target.user, target.bot = substitute, ""
        close_offers_of(game=locked, seat=target, now=now, why="replaced")
        # Whom the player before muted, or who muted them, says nothing of the newcomer.
        ChatMute.objects.filter(Q(seat=target) | Q(muted=target)).delete()
        target.timeouts_in_a_row = 0
        target.save(update_fields=["user", "bot", "timeouts_in_a_row"])
        move = _record(
            locked,
            by,
            "replace",
            why,
            target,
            seat=seat,
            before=before,
            before_user=before_user,  # (whom it took the seat from: see leagues.manage)
            after=_kept(target.user) if target.user is not None else target.name,
            after_user=target.user_id,
            # A bot by its engine name, said in each reader's language (``before``/``after``
            # hold the names in the user's language of the moment, for older readers)
            before_bot=before_bot,
            after_bot=bot,
        )
        assert locked.state is not None
        commit_commands(locked, engine, locked.state, [])  # a bot plays on if it is waited on
    return _done(game, locked, move)


def abort_game(*, game: Game | int, by: Any, why: str, authorized: bool = False) -> Move:
    """End a running game without a result: cancelled, nobody ranked, nothing rated."""
    why = _why(why)
    with transaction.atomic():
        locked = _running(game, by, authorized)
        now = timezone.now()
        for seat in locked.seats.all():
            close_offers_of(game=locked, seat=seat, now=now, why="aborted")
        move = _record(locked, by, "abort", why)
        locked.status = Game.Status.CANCELLED
        locked.outcome = {"ended_by": "aborted", "placings": [], "winners": []}
        locked.finished_at = now
        locked.deadline = None
        locked.paused_at = None
        locked.paused_left = None
        locked.save()
        Seat.objects.filter(game=locked).update(to_act=False)
    return _done(game, locked, move)


# -- a pause the players agree to ------------------------------------------------------------


def _voters(game: Game) -> list[int]:
    """The seats whose players vote on a pause: the people still playing (not bots)."""
    return [s.order for s in game.seats.all() if s.user_id is not None and not s.is_bot]


def _players_game(game: Game | int, by: Any) -> tuple[Game, Seat]:
    locked = lock_game(game)
    seat = seat_of(locked, by)
    if locked.status != Game.Status.ACTIVE:
        raise GameNotActive(not_active(locked), status_now=locked.status)
    if seat.is_bot:
        raise NotAllowed(_("you resigned from game #%(game)s") % {"game": locked.pk})
    return locked, seat


def vote_pause(*, game: Game | int, by: Any) -> Move | None:
    """``by`` asks for a pause; when every player still playing has asked, the clock stops
    (as a staff pause) and any of them may end it (:func:`end_players_pause`). Returns the
    pause's log entry once it happens (None: the vote is counted, others are asked)."""
    with transaction.atomic():
        locked, seat = _players_game(game, by)
        if locked.paused_at is not None:
            raise InvalidRequest(_("game #%(game)s is paused already") % {"game": locked.pk})
        votes, agreed = cast_vote(locked.pause_votes, seat.order, _voters(locked))
        locked.pause_votes = votes
        locked.save(update_fields=["pause_votes"])
        move = None
        if agreed:
            _stop_clock(locked, timezone.now())
            move = _record(locked, by, "pause", "", by_players=votes)
    if isinstance(game, Game):
        copy_into(game, locked)
    return move


def withdraw_pause_vote(*, game: Game | int, by: Any) -> None:
    """``by`` no longer asks for a pause (before everybody agreed)."""
    with transaction.atomic():
        locked, seat = _players_game(game, by)
        if locked.paused_at is None:
            locked.pause_votes = [o for o in locked.pause_votes if o != seat.order]
            locked.save(update_fields=["pause_votes"])
    if isinstance(game, Game):
        copy_into(game, locked)


def end_players_pause(*, game: Game | int, by: Any) -> Move:
    """Any player ends a pause the players agreed to (a staff pause only the staff end)."""
    with transaction.atomic():
        locked, _seat = _players_game(game, by)
        if locked.paused_at is None or not locked.pause_votes:
            raise InvalidRequest(
                _("game #%(game)s is not paused by its players") % {"game": locked.pk}
            )
        _start_clock(locked, timezone.now())
        move = _record(locked, by, "resume", "", by_players=True)
    return _done(game, locked, move)
