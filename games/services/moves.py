"""The one write path: submit a command, append it to the log, save the snapshot.

Everything that changes a running game's state (a player's command, a bot's, an executed
trade) goes through :func:`commit_commands` inside one transaction holding the game row lock.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines.base import Command, GameEngine, IllegalCommand, State
from games.engines.base import MalformedCommand as EngineMalformed
from games.engines.registry import get_engine
from games.engines.rng import SeededRng
from games.models import Game, Move, Seat, TradeOffer
from games.services import clock, hooks
from games.services.errors import (
    GameNotActive,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidRequest,
    MalformedCommand,
    NotAllowed,
    NotFound,
    NotYourTurn,
    StaleVersion,
)

BOT_MOVES_PER_CALL = 2000
"""At most this many bot commands after one submission (a safety cap, far above a game)."""

MAX_COMMANDS_PER_SUBMISSION = 50
SOURCES = frozenset(Move.Source.values)
_SEPARATORS = re.compile(r"[;\r\n]+")


@dataclass(frozen=True)
class MoveResult:
    """The answer to a submission: the version after it and every Move it wrote (the
    player's commands, then any bot commands that followed). ``replayed``: an idempotency key
    matched an earlier submission, whose answer this is; nothing was written."""

    version: int
    moves: list[Move] = field(default_factory=list)
    replayed: bool = False
    game: Game | None = None
    """The game row as written (fresh answers only): lets the answer be built without
    reading the game again."""
    seats: list[Seat] = field(default_factory=list)
    """The game's seats in order, with their users (fresh answers only)."""


@dataclass(frozen=True)
class Entry:
    """A command ready to be logged: who, what, and what the engine said."""

    seat: Seat | None
    command: Command | None  # None: a platform event (a resignation)
    text: str
    events: list[dict[str, Any]]
    source: str


# -- small shared helpers --------------------------------------------------------------------


def engine_for(game: Game) -> GameEngine:
    try:
        return get_engine(game.game_type)
    except (LookupError, ImportError) as exc:
        raise InvalidRequest(
            _("game type '%(type)s' is not available: %(reason)s")
            % {"type": game.game_type, "reason": exc}
        ) from exc


def lock_game(game: Game | int) -> Game:
    """Re-read the game row under ``SELECT ... FOR UPDATE``: every writer of a game takes
    this lock first, so two submissions for one game are serialised and the second sees the
    version the first wrote (and is refused as stale, or applied after it)."""
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(_("there is no game #%(game)s") % {"game": pk}) from None


def require_signed_in(user: Any) -> None:
    """Refuse an anonymous caller before anything else: every game action needs a person."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("sign in first"))


def seat_of(game: Game, user: Any) -> Seat:
    """The user's seat, or :class:`NotAllowed`."""
    require_signed_in(user)
    seat = game.seats.select_related("user").filter(user=user).first()
    if seat is None:
        raise NotAllowed(not_seated(game))
    return seat


def not_seated(game: Game) -> str:
    """The refusal of a caller who has no seat in ``game``."""
    return _("you are not seated in game #%(game)s: only its players may do this") % {
        "game": game.pk
    }


def not_active(game: Game) -> str:
    """Why a game that is not running takes no move, and what is left to do (a function:
    the sentence is translated in the language active when it is raised)."""
    if game.status == Game.Status.OPEN:
        message = _(
            "game #%(game)s has not started yet: moves begin when its creator (or, if the "
            "creator left, one of its players) starts it"
        )
    elif game.status == Game.Status.FINISHED:
        message = _(
            "game #%(game)s is finished: no more moves; its record and its verification are open"
        )
    elif game.status == Game.Status.CANCELLED and game.started_at is not None:  # a tool's abort
        message = _(
            "game #%(game)s was aborted while it was played: nothing more can be played in it"
        )
    elif game.status == Game.Status.CANCELLED:
        message = _("game #%(game)s was cancelled before it started: nothing can be played in it")
    else:
        message = _("game #%(game)s is %(status)s: it is not running")
    return message % {"game": game.pk, "status": game.get_status_display()}


def require_active(game: Game) -> None:
    """Refuse a game that is not running, saying why and what is left to do."""
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(not_active(game), status_now=game.status)
    if game.paused_at is not None:  # the game tools' pause (games/services/tools.py)
        raise GameNotActive(
            _("game #%(game)s is paused: no move is taken and no deadline runs until it resumes")
            % {"game": game.pk},
            status_now="paused",
        )


def copy_into(target: Game, source: Game) -> None:
    """Bring the caller's instance up to date with the row we wrote."""
    if target is source:
        return
    for f in Game._meta.concrete_fields:
        setattr(target, f.attname, getattr(source, f.attname))


def seats_by_order(game: Game) -> dict[int, Seat]:
    return {s.order: s for s in game.seats.select_related("user")}


def seats_in_order(game: Game) -> list[Seat]:
    """Every seat of the game with its user, in one query (the write path reads them once
    and uses them for the caller's seat, the bots, the waiting flags and the answer)."""
    return list(Seat.objects.filter(game_id=game.pk).select_related("user").order_by("order"))


def seat_among(seats: Sequence[Seat], game: Game, user: Any) -> Seat:
    """:func:`seat_of`, from seats already read."""
    require_signed_in(user)
    seat = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(not_seated(game))
    return seat


def colour_name(engine: GameEngine | None, colour: str) -> str:
    """A colour's name in the active language ("Noir" for a French reader), as the engine
    names it; the bare colour, capitalised, when no engine is at hand."""
    if engine is None:
        return colour.capitalize()
    name = str(engine.colour_name(colour))
    return name[:1].upper() + name[1:]


def engine_of_seat(seat: Seat) -> GameEngine | None:
    """The engine of the seat's game (its game row if read already, else its type alone)."""
    game_type: str | None
    if Seat.game.is_cached(seat):
        game_type = seat.game.game_type
    else:
        game_type = Game.objects.filter(pk=seat.game_id).values_list("game_type", flat=True).first()
    try:
        return get_engine(game_type or "")
    except (LookupError, ImportError):
        return None


def seat_colour(seat: Seat, engine: GameEngine | None = None) -> str:
    """The seat's colour as its reader names it ("" for a seat without one)."""
    if not seat.colour:
        return ""
    return colour_name(engine or engine_of_seat(seat), seat.colour)


def seat_label(seat: Seat, engine: GameEngine | None = None) -> str:
    """How a player calls a seat: its colour and who plays it, "Black (Ada)" ("Noir (Ada)"
    for a French reader). ``engine``: the game's, when the caller has it at hand."""
    if not seat.colour:
        return seat.name
    return _("%(colour)s (%(name)s)") % {"colour": seat_colour(seat, engine), "name": seat.name}


def not_your_turn(
    waiting: Sequence[int], seats: Sequence[Seat], engine: GameEngine | None = None
) -> str:
    """Whom the game waits for, e.g. "it is Black's turn (Ada), not yours" (several seats
    when it waits on several): a refused player learns whom to wait for, not only that it
    is not them."""
    by_order = {s.order: s for s in seats}
    if len(waiting) == 1 and waiting[0] in by_order:
        seat = by_order[waiting[0]]
        if seat.colour:
            return _("it is %(colour)s's turn (%(name)s), not yours") % {
                "colour": seat_colour(seat, engine),
                "name": seat.name,
            }
        return _("it is %(name)s's turn, not yours") % {"name": seat.name}
    labels = [
        seat_label(by_order[o], engine) if o in by_order else _("seat %(seat)s") % {"seat": o}
        for o in waiting
    ]
    if not labels:
        return _("the game waits on no one's command right now")
    if len(labels) == 1:
        listed = labels[0]
    else:
        listed = _("%(items)s and %(last)s") % {"items": ", ".join(labels[:-1]), "last": labels[-1]}
    return _("the game waits on %(seats)s, not on you") % {"seats": listed}


# -- parsing ------------------------------------------------------------------------------------


def split_text(text: str) -> list[str]:
    """Commands separated by ``;`` or new lines, blanks dropped."""
    return [part.strip() for part in _SEPARATORS.split(text) if part.strip()]


def parse_commands(
    engine: GameEngine,
    *,
    text: str | None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    options: Mapping[str, Any] | None = None,
) -> list[Command]:
    """The commands of a submission, from text or JSON (one object or a list of them).
    ``options``: the game's, passed to the engine's parse so that its refusals speak of
    this game (an unknown verb's lists this edition's verbs only)."""
    if (text is None) == (command is None):
        raise InvalidRequest(_("give the command either as text or as JSON (exactly one)"))
    raw: list[Any]
    if text is not None:
        if not isinstance(text, str):
            raise MalformedCommand(_("the command text must be a string"))
        raw = split_text(text)
    else:
        raw = [command] if isinstance(command, Mapping) else list(command or [])
    if not raw:
        raise MalformedCommand(_("the submission holds no command"), command=text or command)
    if len(raw) > MAX_COMMANDS_PER_SUBMISSION:
        raise InvalidRequest(
            _("%(count)s commands in one submission: send at most %(most)s at a time")
            % {"count": len(raw), "most": MAX_COMMANDS_PER_SUBMISSION}
        )
    commands = []
    for index, item in enumerate(raw, start=1):
        try:
            if isinstance(item, str):
                commands.append(engine.parse(item, options=options))
            elif isinstance(item, Mapping):
                commands.append(engine.command_from_json(item))
            else:
                raise EngineMalformed(_("%(item)r is not a command object") % {"item": item})
        except IllegalCommand as exc:
            raise MalformedCommand(
                _numbered(index, len(raw), str(exc)), command=item, index=index
            ) from exc
    return commands


def _numbered(index: int, total: int, message: str) -> str:
    """The refusal of one command of several says which one it was."""
    if total == 1:
        return message
    return _("command %(index)s of %(total)s: %(message)s") % {
        "index": index,
        "total": total,
        "message": message,
    }


def allowed_out_of_turn(command: Command) -> bool:
    """Commands a seated player may send while the game does not wait on them: those the
    engine marks ``anytime = True`` (standing preferences, say). The engine still judges
    them."""
    return getattr(command, "anytime", False) is True


def apply_player_commands(
    engine: GameEngine,
    state: State,
    seat: Seat,
    commands: Sequence[Command],
    source: str,
    seats: Sequence[Seat] = (),
) -> tuple[State, list[Entry]]:
    """Apply in order, all or nothing; the error names the command that failed.
    ``seats`` (the game's, already read) name whom the game waits on when it is not
    ``seat``'s turn."""
    entries: list[Entry] = []
    total = len(commands)
    for index, command in enumerate(commands, start=1):
        text = engine.format(command)
        if seat.order not in engine.to_act(state) and not allowed_out_of_turn(command):
            waiting = engine.to_act(state)
            raise NotYourTurn(
                _numbered(
                    index,
                    total,
                    _("%(command)s: %(why)s")
                    % {"command": text, "why": not_your_turn(waiting, seats, engine)},
                ),
                command=text,
                index=index,
                to_act=waiting,
            )
        if engine.trade_parties(state, seat.order, command) is not None:
            raise IllegalMove(
                _numbered(
                    index,
                    total,
                    _(
                        "%(command)s is a trade: propose it as a trade offer, the other "
                        "players must accept it"
                    )
                    % {"command": text},
                ),
                command=text,
                index=index,
            )
        try:
            state, events = engine.apply(state, seat.order, command)
        except IllegalCommand as exc:
            raise IllegalMove(_numbered(index, total, str(exc)), command=text, index=index) from exc
        entries.append(Entry(seat, command, text, list(events), source))
    return state, entries


# -- writing --------------------------------------------------------------------------------


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
        Move(
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
    Move.objects.bulk_create(moves)
    game.version = first + len(moves) - 1
    return moves


def bot_command(engine: GameEngine, state: State, seat: Seat, seq: int, seed: str) -> Command:
    """The bot's choice (its own randomness derived from the seed and position), else the
    engine's default command should the bot pick something the engine refuses."""
    bot = engine.bots.get(seat.bot) or next(iter(engine.bots.values()))
    command = bot(state, seat.order, SeededRng(seed, f"bot {seq}"))
    if engine.trade_parties(state, seat.order, command) is not None:
        return engine.default_command(state, seat.order)
    return command


def play_bot_entries(
    engine: GameEngine,
    game: Game,
    state: State,
    limit: int = BOT_MOVES_PER_CALL,
    seats_read: Sequence[Seat] | None = None,
) -> tuple[State, list[Entry]]:
    """Let bot seats act while the game waits on one of them (capped at ``limit``)."""
    seats = seats_by_order(game) if seats_read is None else {s.order: s for s in seats_read}
    if not any(s.is_bot for s in seats.values()):
        return state, []
    entries: list[Entry] = []
    while len(entries) < limit and engine.outcome(state) is None:
        waiting = [seats[o] for o in engine.to_act(state) if o in seats and seats[o].is_bot]
        if not waiting:
            break
        seat = waiting[0]
        seq = game.version + len(entries) + 1
        command = bot_command(engine, state, seat, seq, game.seed)
        try:
            new_state, events = engine.apply(state, seat.order, command)
        except IllegalCommand:
            command = engine.default_command(state, seat.order)
            new_state, events = engine.apply(state, seat.order, command)
        entries.append(Entry(seat, command, engine.format(command), list(events), "bot"))
        state = new_state
    return state, entries


def final_outcome(game: Game, engine_outcome: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's placings, with resigned seats moved last (the latest resigner first of
    them); ranks are renumbered, ties among the others kept."""
    resigned = list(
        game.seats.filter(resigned=True)
        .order_by("-resigned_at", "-id")
        .values_list("order", flat=True)
    )
    placings = list((engine_outcome or {}).get("placings", []))
    by_seat = {p["seat"]: p for p in placings}
    playing = [p for p in placings if p["seat"] not in resigned]
    if engine_outcome is None:
        others = game.seats.exclude(order__in=resigned).values_list("order", flat=True)
        playing = [{"seat": order, "rank": 1} for order in others]
    result: list[dict[str, Any]] = []
    previous_rank = None
    for index, placing in enumerate(playing):
        rank = result[-1]["rank"] if placing["rank"] == previous_rank else index + 1
        previous_rank = placing["rank"]
        result.append({**placing, "rank": rank})
    for order in resigned:
        result.append(
            {**by_seat.get(order, {}), "seat": order, "rank": len(result) + 1, "resigned": True}
        )
    winners = [p["seat"] for p in result if p["rank"] == 1]
    out = {**(engine_outcome or {}), "placings": result, "winners": winners}
    if engine_outcome is None:
        out["ended_by"] = "resignation"
    return out


def finish(game: Game, outcome: dict[str, Any], now: Any) -> None:
    game.status = Game.Status.FINISHED
    game.outcome = outcome
    game.finished_at = now
    game.deadline = None
    TradeOffer.objects.filter(game=game, status=TradeOffer.Status.OPEN).update(
        status=TradeOffer.Status.EXPIRED, resolved_at=now, message="the game ended"
    )


_SAVED_BY_A_MOVE = [
    *("state", "version", "status", "outcome", "finished_at", "deadline", "clock_started_at")
]


def save_game(
    game: Game,
    engine: GameEngine,
    state: State,
    moved: bool,
    seats_read: Sequence[Seat] | None = None,
) -> None:
    """Save the snapshot, the version, the deadline, and which seats the game waits on.

    ``seats_read``: the game's seats, read under the game lock by the caller; then only the
    fields a move changes are written, and the seats' waiting flags only where they change
    (nothing else writes them without the lock)."""
    now = timezone.now()
    before = game.state
    if moved and game.state is not None:  # the deadline is replaced: a vacation wait ends
        from games.services.timeouts import end_vacation_wait  # (timeouts imports this module)

        end_vacation_wait(game, engine.to_act(game.state), now, seats_read)
    if moved and game.status == Game.Status.ACTIVE:  # the wait ends: time banks pay for it
        read = clock.settle_banks(game, engine, before, state, now, seats_read)
    else:
        read = seats_read
    if game.status == Game.Status.ACTIVE:  # a turn ends: offers made in it lapse
        from games.services.trades import expire_with_turn  # (trades imports this module)

        expire_with_turn(game, engine, before, state, now)
    game.state = state
    outcome = engine.outcome(state)
    if outcome is not None and game.status == Game.Status.ACTIVE:
        finish(game, final_outcome(game, outcome.to_json()), now)
    if game.status == Game.Status.ACTIVE:
        waiting = engine.to_act(state)
        if moved or game.deadline is None:
            game.deadline = clock.start_wait(game, read, waiting, now)
    else:
        waiting = []
    if seats_read is not None:
        game.save(update_fields=_SAVED_BY_A_MOVE)
        _update_to_act(game, seats_read, waiting)
        return
    game.save()
    seats = Seat.objects.filter(game=game)
    if waiting:
        seats.update(to_act=ExpressionWrapper(Q(order__in=waiting), output_field=BooleanField()))
    else:  # (an empty IN would match nothing and leave the old flags)
        seats.update(to_act=False)


def _update_to_act(game: Game, seats: Sequence[Seat], waiting: Sequence[int]) -> None:
    """One UPDATE for the seats whose flag changes (none if the game waits on the same
    seats as before); the instances are brought up to date."""
    wanted = {s.pk: s.order in waiting for s in seats}
    changed = [s for s in seats if s.to_act != wanted[s.pk]]
    if not changed:
        return
    now_waiting = [s.pk for s in changed if wanted[s.pk]]
    Seat.objects.filter(pk__in=[s.pk for s in changed]).update(
        to_act=ExpressionWrapper(Q(pk__in=now_waiting), output_field=BooleanField())
        if now_waiting
        else False
    )
    for s in changed:
        s.to_act = wanted[s.pk]


def notify_after_commit(game: Game, moves: Sequence[Move]) -> None:
    """Announce the moves to the apps built on the games once the transaction commits."""
    hooks.announce_after_commit(game.pk, [m.seq for m in moves])


def commit_commands(
    game: Game,
    engine: GameEngine,
    state: State,
    entries: Sequence[Entry],
    *,
    idempotency_key: str | None = None,
    fingerprint: str = "",
    seats: Sequence[Seat] | None = None,
) -> list[Move]:
    """Log ``entries`` (already applied, giving ``state``), let bots play, save, notify.
    The caller holds the game lock inside a transaction; ``seats``: the game's seats, if it
    has read them under that lock."""
    moves = (
        append_moves(game, entries, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if entries
        else []
    )
    if game.status == Game.Status.ACTIVE:
        state, bot_entries = play_bot_entries(engine, game, state, seats_read=seats)
        if bot_entries:
            # One submission, one batch: a replayed key returns the bot moves too.
            batch = moves[0].seq if moves else None
            moves.extend(append_moves(game, bot_entries, batch=batch))
    save_game(game, engine, state, moved=bool(moves), seats_read=seats)
    notify_after_commit(game, moves)
    return moves


# -- the use case ---------------------------------------------------------------------------


def submit_command(
    *,
    game: Game | int,
    user: Any,
    text: str | None = None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    source: str = "api",
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Apply a player's command(s): one transaction, the game row locked, all or nothing."""
    if source not in SOURCES:
        raise InvalidRequest(_("unknown source '%(source)s'") % {"source": source})
    if idempotency_key is not None and not (0 < len(idempotency_key) <= 200):
        raise InvalidRequest(_("an idempotency key has 1 to 200 characters"))
    key = None
    if idempotency_key is not None:
        key = (idempotency_key, request_fingerprint(text, command, expected_version))
    try:
        return _submit(game, user, text, command, source, expected_version, key)
    except IntegrityError:
        # Only reachable where the row lock is not a real lock (SQLite): another writer took
        # the same seq or key first. Answer as the lock would have made us answer.
        current = Game.objects.filter(pk=game.pk if isinstance(game, Game) else game).first()
        if current is not None and key is not None:
            replay = _replay(current, user, *key)
            if replay is not None:
                return replay
        version = current.version if current is not None else None
        raise StaleVersion(
            _("the game moved on while your command was applied; reload and try again"),
            current_version=version,
        ) from None


def _submit(
    game: Game | int,
    user: Any,
    text: str | None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    source: str,
    expected_version: int | None,
    key: tuple[str, str] | None,
) -> MoveResult:
    """``key``: the idempotency key and the fingerprint of the request it came with."""
    with transaction.atomic():
        locked = lock_game(game)
        # A key already used belongs to a submission that moved the game past the version
        # it expected: when the caller expects the current version, the key cannot have
        # been used for an applied submission of the same request, and the unique
        # constraint on (game, key) catches any other reuse (``submit_command`` then
        # answers with the earlier answer, as here).
        if key is not None and expected_version != locked.version:
            replay = _replay(locked, user, *key)
            if replay is not None:
                return replay
        require_active(locked)
        seats = seats_in_order(locked)
        seat = seat_among(seats, locked, user)
        if seat.resigned:
            raise NotAllowed(
                _("you resigned from game #%(game)s: a bot plays your seat to the end")
                % {"game": locked.pk}
            )
        if expected_version is not None and expected_version != locked.version:
            raise StaleVersion(
                _(
                    "the game has moved on: you sent version %(sent)s, it is at %(current)s; "
                    "reload and try again"
                )
                % {"sent": expected_version, "current": locked.version},
                current_version=locked.version,
            )
        engine = engine_for(locked)
        commands = parse_commands(engine, text=text, command=command, options=locked.options)
        assert locked.state is not None
        state, entries = apply_player_commands(engine, locked.state, seat, commands, source, seats)
        idempotency_key, fingerprint = key or (None, "")
        moves = commit_commands(
            locked,
            engine,
            state,
            entries,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
            seats=seats,
        )
        if seat.timeouts_in_a_row:  # the player is back: their run of missed deadlines ends
            seat.timeouts_in_a_row = 0
            seat.save(update_fields=["timeouts_in_a_row"])
    if isinstance(game, Game):
        copy_into(game, locked)
    return MoveResult(version=locked.version, moves=moves, game=locked, seats=seats)


def request_fingerprint(
    text: str | None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    expected_version: int | None,
) -> str:
    """What a keyed submission asked for, as a hash stored with its key: a retry must send
    the same, else the key is reused for another request and refused."""
    asked = {"text": text, "command": command, "expected_version": expected_version}
    canonical = json.dumps(asked, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(game: Game, user: Any, key: str, fingerprint: str) -> MoveResult | None:
    """The first answer of an earlier submission with the same key and request, if any.
    (Moves logged before fingerprints were kept have none: their key alone decides.)"""
    first = game.moves.select_related("seat").filter(idempotency_key=key).first()
    if first is None:
        return None
    if first.seat is None or first.seat.user_id != getattr(user, "pk", None):
        raise InvalidRequest(
            _(
                "this idempotency key was already used for another submission: send a new "
                "key with each new submission"
            )
        )
    if first.request_fingerprint and first.request_fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            _(
                "This idempotency key was already used to send '%(first)s', so this "
                "different request was not played. Send each new command with a new key "
                "(on the web: reload the page and send it again)."
            )
            % {"first": first.text}
        )
    moves = list(game.moves.filter(batch=first.batch).order_by("seq"))
    return MoveResult(version=moves[-1].seq, moves=moves, replayed=True)


def play_bots(*, game: Game | int, limit: int = BOT_MOVES_PER_CALL) -> MoveResult:
    """Let bots act where the game waits on them (after a start, a resignation, a timeout)."""
    with transaction.atomic():
        locked = lock_game(game)
        require_active(locked)
        engine = engine_for(locked)
        assert locked.state is not None
        state, entries = play_bot_entries(engine, locked, locked.state, limit)
        moves = append_moves(locked, entries) if entries else []
        save_game(locked, engine, state, moved=bool(moves))
        notify_after_commit(locked, moves)
    if isinstance(game, Game):
        copy_into(game, locked)
    return MoveResult(version=locked.version, moves=moves)
