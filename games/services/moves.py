"""The one write path: submit a command, append it to the log, save the snapshot.

Everything that changes a running game's state (a player's command, a bot's, an executed
trade) goes through :func:`commit_commands` inside one transaction holding the game row lock.
Read top to bottom: :func:`submit_command` (the use case) locks the game, finds the seat,
parses, applies, then :func:`commit_commands` logs, lets bots play, saves and announces. The
parts live in modules of their own: ``lookups`` (the lock, the seat), ``parsing``,
``movelog`` (the log rows), ``bots``, ``saving`` (snapshot, deadline, finish), ``hooks`` (the
outbox row the notifications read).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines.base import Command, GameEngine, IllegalCommand, OutOfTurn, State
from games.models import Game, Move, Seat
from games.services import hooks, rows
from games.services.bots import BOT_MOVES_PER_CALL, play_bot_entries
from games.services.errors import (
    IdempotencyKeyReused,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    NotFound,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from games.services.lookups import (
    copy_into,
    engine_for,
    lock_game,
    lock_game_with_seats,
    require_active,
    seat_among,
    seats_in_order,
)
from games.services.movelog import SOURCES, Entry, append_moves
from games.services.naming import not_your_turn
from games.services.parsing import (
    MAX_COMMANDS_PER_SUBMISSION,
    allowed_out_of_turn,
    numbered,
    parse_commands,
)
from games.services.saving import save_game


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


class Keyed(NamedTuple):
    """An idempotency key with the request it came with: its ``fingerprint`` (stored with
    the key: a retry must ask the same) and what it asked (a refusal says what differs)."""

    key: str
    fingerprint: str
    text: str | None
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None
    expected_version: int | None


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
                numbered(
                    index,
                    total,
                    _engines_reason(engine, state, seat.order, command)
                    or _("%(command)s: %(why)s")
                    % {"command": text, "why": not_your_turn(waiting, seats, engine)},
                ),
                command=text,
                index=index,
                to_act=waiting,
            )
        try:
            parties = engine.trade_parties(state, seat.order, command)
        except IllegalCommand as exc:  # (a trade naming a colour nobody plays)
            raise IllegalMove(numbered(index, total, str(exc)), command=text, index=index) from exc
        if parties is not None:
            raise IllegalMove(
                numbered(
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
            after, events = engine.apply(state, seat.order, command)
        except IllegalCommand as exc:
            raise IllegalMove(numbered(index, total, str(exc)), command=text, index=index) from exc
        if allowed_out_of_turn(command) and changes_nothing(state, after):
            raise IllegalMove(
                numbered(index, total, _nothing_to_change(text)),
                code="nothing_to_change",
                command=text,
                index=index,
            )
        state = after
        entries.append(Entry(seat, command, text, list(events), source))
        if index < total and any(engine.shows_chance(e) for e in events):
            raise IllegalMove(
                numbered(index, total, _chance_not_last(text)),
                code="chance_not_last",
                command=text,
                index=index,
            )
    return state, entries


def _engines_reason(engine: GameEngine, state: State, order: int, command: Command) -> str:
    """The engine's own refusal of a command sent while the game does not wait on the
    seat, when it says more than whose turn it is: an ``end`` while the active player's
    turn waits on another's lay-off decision ("the game is waiting for Blue (the lay-off
    decision)"), a lay-off answered after its bet was settled ("no bet ... waits for your
    lay-off decision"); "it is Blue's turn (Ada), not yours" told the first that it was
    not their turn (found by play-testing). "" for a plain out-of-turn refusal (the
    caller names whose turn it is) or one the engine would accept. ``apply`` is pure:
    nothing is kept."""
    try:
        engine.apply(state, order, command)
    except OutOfTurn:
        return ""
    except IllegalCommand as exc:
        return str(exc)
    return ""


def changes_nothing(before: State, after: State) -> bool:
    """Whether a command left the state as it was, but for the count of commands applied
    (``n``, which every engine keeps: a command's dice depend on its place in the log).
    Asked of standing choices only (:func:`allowed_out_of_turn`): a state is compared whole."""
    return after.keys() == before.keys() and all(
        value == before[key] for key, value in after.items() if key != "n"
    )


def _nothing_to_change(text: str) -> str:
    """Why a standing choice that is already so is refused: logged, it would tell everyone
    nothing and move the game's version on, so that the active player's submission, sent
    with the version they saw, would be refused as stale (found by a security test)."""
    return _("%(command)s changes nothing: it is already your choice. Nothing was played.") % {
        "command": text
    }


def _chance_not_last(text: str) -> str:
    """Why a command that rolls dice or turns a card may only come last: tried on what it
    drew, a later command's refusal would tell the draw, and nothing being played, the
    player could probe until it suits them (a command's draws depend on its place in the
    log). The refusal is the same whatever was drawn."""
    return _(
        "%(command)s rolls dice or turns a card, so it must be the last command you send: "
        "send the ones after it once you see what it drew. Nothing was played."
    ) % {"command": text}


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
    offers_may_lapse: bool = True,
    back: Seat | None = None,
) -> list[Move]:
    """Log ``entries`` (already applied, giving ``state``), let bots play, save, notify.
    The caller holds the game lock inside a transaction; ``seats``: the game's seats, if it
    has read them under that lock; ``offers_may_lapse``: false if it read that the game has
    no open offer that lapses with a turn; ``back``: the seat of a player who missed
    deadlines and has just moved (their run of missed deadlines ends)."""
    with rows.one_trip():  # the log, the game, its seats and the outbox row: one statement
        if back is not None and back.timeouts_in_a_row:
            back.timeouts_in_a_row = 0
            rows.update(back, ["timeouts_in_a_row"])
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
        save_game(
            game,
            engine,
            state,
            moved=bool(moves),
            seats_read=seats,
            offers_may_lapse=offers_may_lapse,
        )
        notify_after_commit(game, moves)
    return moves


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
        fingerprint = request_fingerprint(text, command, expected_version)
        key = Keyed(idempotency_key, fingerprint, text, command, expected_version)
    try:
        return _submit(game, user, text, command, source, expected_version, key)
    except IntegrityError:
        # Only reachable where the row lock is not a real lock (SQLite): another writer took
        # the same seq or key first. Answer as the lock would have made us answer.
        current = Game.objects.filter(pk=game.pk if isinstance(game, Game) else game).first()
        if current is not None and key is not None:
            replay = _replay(current, user, key)
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
    key: Keyed | None,
) -> MoveResult:
    """``key``: the idempotency key and the request it came with."""
    with rows.move_transaction():
        locked, seats, offers_may_lapse = lock_game_with_seats(game)
        # The seat first: a stranger to a private game is refused as anywhere else, before
        # anything of its state (a key it used, whether it runs) is said.
        seat = seat_among(seats, locked, user)
        # A key already used belongs to a submission that moved the game past the version
        # it expected: when the caller expects the current version, the key cannot have
        # been used for an applied submission of the same request, and the unique
        # constraint on (game, key) catches any other reuse (``submit_command`` then
        # answers with the earlier answer, as here).
        if key is not None and expected_version != locked.version:
            replay = _replay(locked, user, key)
            if replay is not None:
                return replay
        engine, state, entries = _judge(
            locked, seats, seat, text, command, source, expected_version
        )
        idempotency_key, fingerprint = (key.key, key.fingerprint) if key else (None, "")
        moves = commit_commands(
            locked,
            engine,
            state,
            entries,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
            seats=seats,
            offers_may_lapse=offers_may_lapse,
            back=seat,
        )
    if isinstance(game, Game):
        copy_into(game, locked)
    return MoveResult(version=locked.version, moves=moves, game=locked, seats=seats)


def _judge(
    game: Game,
    seats: Sequence[Seat],
    seat: Seat,
    text: str | None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    source: str,
    expected_version: int | None,
) -> tuple[GameEngine, State, list[Entry]]:
    """Every refusal of a submission by ``seat``, in order (a game not running, a resigned
    seat, a stale version, the notation, the rules), and what applying it would give: the
    one judge of :func:`_submit` and :func:`check_command`."""
    require_active(game)
    if seat.resigned:
        raise NotAllowed(
            _("you resigned from game #%(game)s: a bot plays your seat to the end")
            % {"game": game.pk}
        )
    engine = engine_for(game)
    if (
        expected_version is not None
        and expected_version != game.version
        and not only_standing_choices_since(game, engine, seat, expected_version)
        and not _standing_choices_only(engine, text, command, game.options)
    ):
        raise StaleVersion(
            _(
                "the game has moved on: you sent version %(sent)s, it is at %(current)s; "
                "reload and try again"
            )
            % {"sent": expected_version, "current": game.version},
            current_version=game.version,
        )
    commands = parse_commands(engine, text=text, command=command, options=game.options)
    assert game.state is not None
    state, entries = apply_player_commands(engine, game.state, seat, commands, source, seats)
    _refuse_too_many_choices(game, seat, [e.command for e in entries if e.command])
    return engine, state, entries


def _standing_choices_only(
    engine: GameEngine,
    text: str | None,
    command: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    options: Mapping[str, Any] | None,
) -> bool:
    """Whether a submission holds standing choices only (``prefer``): such a one stands
    whatever moved since the version it was sent with, for it decides how its player's
    decisions to come are answered, not anything on the board (the board page's choices,
    kept current by live.js or left open an hour, were refused as stale: found by review).
    Parsed again only when the version is behind; unreadable, it is judged stale as before."""
    try:
        commands = parse_commands(engine, text=text, command=command, options=options)
    except ServiceError:
        return False
    return bool(commands) and all(allowed_out_of_turn(c) for c in commands)


def check_command(*, game: int, user: Any, text: str, expected_version: int | None) -> None:
    """Refuse now, as :func:`submit_command` would, a submission not yet sent: the web's
    confirm step asks this first, so that a tab left open since the turn passed says at once
    that the move can no longer be played rather than asking "Play this?" (found by a
    play-test). Reads only: nothing is locked, written or announced; the submission itself
    is judged again under the lock."""
    found = Game.objects.filter(pk=game).first()
    if found is None:
        raise NotFound(_("there is no game #%(game)s") % {"game": game}, game=game)
    seats = seats_in_order(found)
    _judge(found, seats, seat_among(seats, found, user), text, None, "web", expected_version)


MOST_CHOICES_AN_HOUR = 20
"""Standing choices (``prefer``) one player may make in a game within an hour. Each is a move
every player's page and every webhook hears of; toggled back and forth (each toggle a real
change), 50 a request at the API's rate filled the log (found by a security test). A player
sets a few in a game; twenty an hour leaves room to change one's mind."""


def _refuse_too_many_choices(game: Game, seat: Seat, commands: Sequence[Command]) -> None:
    """Refuse a submission that would take ``seat`` past :data:`MOST_CHOICES_AN_HOUR`
    standing choices (read only when it holds one: a move pays nothing). Asked once the
    commands are applied, so that a choice that changes nothing is refused as such first."""
    # (a command's ``kind`` is its JSON's "type", as the engines write it: the log's filter)
    kinds = {getattr(c, "kind", "") for c in commands if allowed_out_of_turn(c)}
    if not kinds:
        return
    sent = sum(1 for c in commands if allowed_out_of_turn(c))
    since = timezone.now() - timedelta(hours=1)
    made = Move.objects.filter(
        game=game, seat=seat, created_at__gt=since, command__type__in=sorted(kinds)
    ).count()
    if made + sent > MOST_CHOICES_AN_HOUR:
        raise InvalidRequest(
            _(
                "%(most)s standing preferences within the hour is the most in game #%(game)s (you "
                "made %(made)s, and this sends %(sent)s): wait a while before changing them again"
            )
            % {"made": made, "sent": sent, "most": MOST_CHOICES_AN_HOUR, "game": game.pk},
            code="too_many_choices",
        )


MOST_CHOICES_PASSED_OVER = 3 * MAX_COMMANDS_PER_SUBMISSION
"""How many moves a stale version may be behind and still be judged by what those moves
were (beyond, it is refused as stale without reading them)."""


def only_standing_choices_since(game: Game, engine: GameEngine, seat: Seat, version: int) -> bool:
    """Whether every move logged after ``version`` is another player's standing choice
    (``prefer``: :func:`allowed_out_of_turn`). A submission sent with that version then
    still stands: a standing choice changes nothing on the board nor whose turn it is, and
    it only decides how its player's own decisions are answered, which that player could
    answer so when asked anyway; refused, it let a player not to act keep the active one's
    every submission stale (found by a security test). Read only when the version sent is
    not the game's, so a move sent with the current version costs nothing more."""
    behind = game.version - version
    if not 0 < behind <= MOST_CHOICES_PASSED_OVER:
        return False
    since = Move.objects.filter(game=game, seq__gt=version).values_list("seat_id", "command")
    found = list(since[: behind + 1])
    return len(found) == behind and all(
        seat_id is not None
        and seat_id != seat.pk
        and command is not None
        and _standing_choice(engine, command)
        for seat_id, command in found
    )


def _standing_choice(engine: GameEngine, command: Mapping[str, Any]) -> bool:
    """Whether a logged command is one sent whoever the game waits on (a preference)."""
    try:
        return allowed_out_of_turn(engine.command_from_json(command))
    except IllegalCommand:  # (a command this engine no longer reads: not one to pass over)
        return False


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


def _replay(game: Game, user: Any, key: Keyed) -> MoveResult | None:
    """The first answer of an earlier submission with the same key and request, if any.
    (Moves logged before fingerprints were kept have none: their key alone decides.)"""
    first = game.moves.select_related("seat").filter(idempotency_key=key.key).first()
    if first is None:
        return None
    if first.seat is None or first.seat.user_id != getattr(user, "pk", None):
        # Keys are per game (the unique constraint is on game and key): another player's
        # key is the documented reuse (422), not a malformed request (it answered an
        # undocumented 400 invalid_request: decision 0039). Their command is not named.
        raise IdempotencyKeyReused(
            _(
                "This idempotency key was already used in this game by another player "
                "(keys are per game): nothing was played. Send a new key, such as a UUID, "
                "with each new submission."
            )
        )
    if first.request_fingerprint and first.request_fingerprint != key.fingerprint:
        raise IdempotencyKeyReused(_reused(first, key))
    moves = list(game.moves.filter(batch=first.batch).order_by("seq"))
    return MoveResult(version=moves[-1].seq, moves=moves, replayed=True)


def _reused(first: Move, key: Keyed) -> str:
    """Why a key sent again with another request is refused. Where only the expected
    version differs (a retry that left it out, or sent another), saying "this different
    request" of the same command puzzles: the message names the versions. The first
    request's version, if it sent one, was the version before its move (a stale one is
    never played), so the fingerprint tells which it was."""
    said = {"first": first.text, "then": first.seq - 1, "now": key.expected_version}
    for then in (first.seq - 1, None):
        if request_fingerprint(key.text, key.command, then) != first.request_fingerprint:
            continue
        if then is None:
            message = _(
                "This idempotency key was already used to send '%(first)s' without a "
                "version; this request has version %(now)s, so it was not played. Retry "
                "with the first request as it was, or send a new command with a new key."
            )
        elif key.expected_version is None:
            message = _(
                "This idempotency key was already used to send '%(first)s' with version "
                "%(then)s; this request has none, so it was not played. Retry with the "
                "first request as it was, or send a new command with a new key."
            )
        else:
            message = _(
                "This idempotency key was already used to send '%(first)s' with version "
                "%(then)s; this request has version %(now)s, so it was not played. Retry "
                "with the first request as it was, or send a new command with a new key."
            )
        return message % said
    return _(
        "This idempotency key was already used to send '%(first)s', so this "
        "different request was not played. Send each new command with a new key "
        "(on the web: reload the page and send it again)."
    ) % {"first": first.text}


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
