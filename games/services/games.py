"""Setting games up and leaving them: create, invite, join, add a bot, leave, start, resign."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.engines.base import InvalidOptions
from games.engines.registry import get_engine, slugs
from games.engines.rng import SeededRng, new_seed, seed_hash, shuffle
from games.models import Game, Invitation, Move, Seat
from games.services.errors import GameNotActive, InvalidRequest, NotAllowed
from games.services.moves import (
    Entry,
    append_moves,
    commit_commands,
    copy_into,
    engine_for,
    final_outcome,
    finish,
    lock_game,
    notify_after_commit,
    require_active,
    require_signed_in,
    save_game,
    seat_of,
)

MIN_SEATS, MAX_SEATS = 2, 6
MAX_TURN_HOURS = 24 * 30
MAX_TIMEOUTS = 20
"""At most this many consecutive missed deadlines before a forfeit (0: never forfeit)."""
MAX_VACATION_DAYS = 30
"""At most this many days of vacation per player and game (see 0004-deadlines.md)."""


def may_manage(game: Game, user: Any) -> bool:
    """The creator (or staff) runs an open game; if the creator left, any seated player."""
    if getattr(user, "is_staff", False) or game.created_by_id == getattr(user, "pk", None):
        return True
    creator = game.created_by_id
    creator_seated = creator is not None and game.seats.filter(user_id=creator).exists()
    return not creator_seated and game.seats.filter(user=user).exists()


def _only_managers(game: Game, does: str) -> str:
    """Who :func:`may_manage` lets do it, for a refusal: "only the creator of game #3 starts
    it (or any of its players, once the creator has left)"."""
    return (
        f"only the creator of game #{game.pk} {does} "
        "(or any of its players, once the creator has left)"
    )


def _require_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise GameNotActive(
            f"game #{game.pk} is {game.status}: seats change only before the start",
            status_now=game.status,
        )


def _next_order(game: Game) -> int:
    last = game.seats.order_by("-order").values_list("order", flat=True).first()
    return 0 if last is None else last + 1


def create_game(
    *,
    creator: Any,
    game_type: str,
    options: Mapping[str, Any] | None = None,
    seats: int = 4,
    turn_hours: int = 72,
    private: bool = False,
    max_timeouts: int = 3,
    vacation_days: int = 14,
) -> Game:
    """An open game with the creator in the first seat. ``options`` are checked by the engine
    for ``seats`` players and stored as given; the start normalises them for the actual
    player count. The timeout policy: ``turn_hours`` per turn, a forfeit after
    ``max_timeouts`` missed deadlines in a row (0: never), and at most ``vacation_days`` of
    vacation per player (see ``docs/decisions/0004-deadlines.md``)."""
    require_signed_in(creator)
    if game_type not in slugs():
        raise InvalidRequest(f"unknown game type {game_type!r}; known: {', '.join(slugs())}")
    try:
        engine = get_engine(game_type)
    except ImportError as exc:
        raise InvalidRequest(f"game type {game_type!r} is not available yet: {exc}") from exc
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidRequest(f"seats must be a whole number, not {seats!r}")
    low, high = max(MIN_SEATS, engine.min_players), min(MAX_SEATS, engine.max_players)
    if not low <= seats <= high:
        raise InvalidRequest(f"{engine.name} is for {low} to {high} players, not {seats}")
    if isinstance(turn_hours, bool) or not isinstance(turn_hours, int):
        raise InvalidRequest(f"turn_hours must be a whole number, not {turn_hours!r}")
    if not 1 <= turn_hours <= MAX_TURN_HOURS:
        raise InvalidRequest(f"turn time is 1 to {MAX_TURN_HOURS} hours, not {turn_hours}")
    _check_policy("max_timeouts", max_timeouts, MAX_TIMEOUTS, "missed deadlines in a row")
    _check_policy("vacation_days", vacation_days, MAX_VACATION_DAYS, "days of vacation")
    raw = dict(options or {})
    try:
        # Checked now for the seats asked; kept as given (defaults depending on the player
        # count, like Lords of Vegas colours, are filled in for the real count at the start).
        engine.normalize_options(raw, seats)
    except InvalidOptions as exc:
        raise InvalidRequest(str(exc), code="invalid_options") from exc
    with transaction.atomic():
        game = Game.objects.create(
            game_type=game_type,
            options=raw,
            max_seats=seats,
            turn_hours=turn_hours,
            max_timeouts=max_timeouts,
            vacation_days=vacation_days,
            private=bool(private),
            created_by=creator,
        )
        Seat.objects.create(game=game, user=creator, order=0)
    return game


def _check_policy(name: str, value: Any, high: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(
            f"{name} must be a whole number, not {value!r}", code="invalid_policy", field=name
        )
    if not 0 <= value <= high:
        raise InvalidRequest(
            f"{name} is 0 to {high} {what}, not {value}", code="invalid_policy", field=name
        )


def invite(*, game: Game | int, by: Any, email: str) -> Invitation:
    """An invitation (with a token to join a private game); the same email invited twice
    gets the same open invitation."""
    require_signed_in(by)
    email = (email or "").strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidRequest(f"{email!r} is not an email address") from None
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        if not (may_manage(locked, by) or locked.seats.filter(user=by).exists()):
            raise NotAllowed(f"only players of game #{locked.pk} invite others to it")
        existing = locked.invitations.filter(email=email, accepted_at__isnull=True).first()
        if existing is not None:
            return existing
        return Invitation.objects.create(
            game=locked, email=email, token=secrets.token_urlsafe(24), invited_by=by
        )


def join_game(*, game: Game | int, user: Any, token: str | None = None) -> Seat:
    """Take the next seat. Private games need an invitation token. Joining twice returns the
    seat already held."""
    require_signed_in(user)
    with transaction.atomic():
        locked = lock_game(game)
        existing = locked.seats.filter(user=user).first()
        if existing is not None:
            return existing
        _require_open(locked)
        invitation = None
        if token:
            invitation = locked.invitations.filter(token=token, accepted_at__isnull=True).first()
            if invitation is None:
                raise NotAllowed("this invitation is not valid (used, or for another game)")
        elif locked.private:
            raise NotAllowed("this game is private: join it with your invitation")
        _require_free_seat(locked, "join another game, or ask its creator for a bigger one")
        seat = Seat.objects.create(game=locked, user=user, order=_next_order(locked))
        if invitation is not None:
            invitation.accepted_at = timezone.now()
            invitation.save(update_fields=["accepted_at"])
    return seat


def add_bot(*, game: Game | int, by: Any, bot: str = "greedy") -> Seat:
    """A bot takes the next seat."""
    require_signed_in(by)
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        if not may_manage(locked, by):
            raise NotAllowed(_only_managers(locked, "adds bots to it"))
        engine = engine_for(locked)
        if bot not in engine.bots:
            raise InvalidRequest(
                f"unknown bot {bot!r}; {engine.name} has: {', '.join(engine.bots)}"
            )
        _require_free_seat(locked, "a bot needs a free seat")
        return Seat.objects.create(game=locked, bot=bot, order=_next_order(locked))


def _require_free_seat(game: Game, advice: str) -> None:
    taken = game.seats.count()
    if taken >= game.max_seats:
        raise InvalidRequest(
            f"game #{game.pk} is full ({taken} of {game.max_seats} seats taken): {advice}",
            code="game_full",
        )


def _renumber(game: Game, seats: list[Seat]) -> None:
    """Give ``seats`` the orders 0..n-1 in list order (two steps, so that the unique
    (game, order) constraint holds after every statement)."""
    Seat.objects.filter(game=game).update(order=F("order") + 100)
    for index, seat in enumerate(seats):
        seat.order = index
        seat.save(update_fields=["order", "colour"])


def leave_game(*, game: Game | int, user: Any) -> None:
    """Give up a seat before the start; the last person leaving cancels the game."""
    require_signed_in(user)
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        seat = seat_of(locked, user)
        seat.delete()
        rest = list(locked.seats.order_by("order"))
        if not any(s.user_id for s in rest):
            locked.status = Game.Status.CANCELLED
            locked.save(update_fields=["status"])
            return
        _renumber(locked, rest)
    if isinstance(game, Game):
        copy_into(game, locked)


def start_game(*, game: Game | int, by: Any, seed: str | None = None) -> Game:
    """Seed, seat order, setup: Move 0 holds the setup events. Seats are shuffled with a draw
    from the (secret, later published) seed, so the seating is verifiable too. ``seed`` is
    for tests and tools that must replay a known game; no door lets a player choose it."""
    require_signed_in(by)
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        if not may_manage(locked, by):
            raise NotAllowed(_only_managers(locked, "starts it"))
        engine = engine_for(locked)
        seats = list(locked.seats.order_by("order"))
        players = len(seats)
        if players < max(MIN_SEATS, engine.min_players):
            raise InvalidRequest(
                f"{engine.name} needs at least {engine.min_players} players; {players} seated",
                code="not_enough_players",
            )
        try:
            options = engine.normalize_options(locked.options, players)
        except InvalidOptions as exc:
            raise InvalidRequest(str(exc), code="invalid_options") from exc
        seed = seed or new_seed()
        shuffle(SeededRng(seed, "seating"), seats)
        colours = engine.seat_colours(options, players)
        for seat, colour in zip(seats, colours, strict=True):
            seat.colour = colour
        _renumber(locked, seats)
        state, events = engine.new_game(players, options, seed)
        now = timezone.now()
        locked.options = options
        locked.seed = seed
        locked.seed_hash = seed_hash(seed)
        locked.status = Game.Status.ACTIVE
        locked.started_at = now
        locked.version = 0
        setup = Move.objects.create(
            game=locked,
            seq=0,
            seat=None,
            command=None,
            text="",
            events=list(events),
            source=Move.Source.SYSTEM,
            batch=0,
        )
        notify_after_commit(locked, [setup])
        commit_commands(locked, engine, state, [])
    if isinstance(game, Game):
        copy_into(game, locked)
    return locked


def resign(*, game: Game | int, user: Any) -> Game:
    """Resign: the player is ranked last (behind anyone who resigns later) and a bot plays
    the seat on; when fewer than two seats remain unresigned, the game ends there."""
    require_signed_in(user)
    with transaction.atomic():
        locked = lock_game(game)
        require_active(locked)
        seat = seat_of(locked, user)
        if not seat.resigned:
            resign_seat(locked, seat, now=timezone.now())
    if isinstance(game, Game):
        copy_into(game, locked)
    return locked


def resign_seat(game: Game, seat: Seat, *, now: Any, reason: str = "") -> list[Move]:
    """Resign ``seat`` of ``game``, whose row the caller has locked: a bot takes the seat
    and plays where the game waits on it, or the game ends if fewer than two seats remain
    unresigned. ``reason`` ("timeouts": a forfeit) goes into the logged event. Returns the
    Moves written (the resignation, then any bot moves)."""
    engine = engine_for(game)
    seat.resigned = True
    seat.resigned_at = now
    seat.bot = "greedy" if "greedy" in engine.bots else next(iter(engine.bots))
    seat.save(update_fields=["resigned", "resigned_at", "bot"])
    moves = _log_resignation(game, seat, reason)
    assert game.state is not None
    notify_after_commit(game, moves)
    if game.seats.filter(resigned=False).count() < 2:
        finish(game, final_outcome(game, None), now)
        save_game(game, engine, game.state, moved=True)
        return moves
    return moves + commit_commands(game, engine, game.state, [])


def _log_resignation(game: Game, seat: Seat, reason: str = "") -> list[Move]:
    """The platform's own log entry (no engine command: the replay skips it)."""
    event: dict[str, Any] = {"type": "resign", "seat": seat.order}
    if reason:
        event["reason"] = reason
    entry = Entry(seat, None, "resign", [event], Move.Source.SYSTEM)
    return append_moves(game, [entry])
