"""The game record: replay the log from the seed (verifiable dice) and export it as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.engines.base import IllegalCommand
from games.engines.rng import seed_hash
from games.models import Game, Move
from games.services.errors import InvalidRequest, NotFound
from games.services.lookups import engine_for

RECORD_FORMAT = "lords-game-record/1"


@dataclass(frozen=True)
class Verification:
    """The result of replaying a game's log from its seed."""

    game_id: int
    ok: bool
    moves_checked: int
    problems: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "ok": self.ok,
            "moves_checked": self.moves_checked,
            "problems": self.problems,
            "first_bad_seq": self.first_bad_seq,
        }


def _canonical(value: Any) -> Any:
    """What the value looks like after a trip through the JSON column."""
    return json.loads(json.dumps(value))


def verify_game(*, game: Game | int) -> Verification:
    """Replay ``new_game`` and every logged command for its seat; every Move's events and
    the final snapshot must come out identical, and the seed must match its public hash."""
    game = _fresh(game)
    if game.status == Game.Status.OPEN or not game.seed:
        raise InvalidRequest(
            _("game #%(game)s has not started: there is nothing to verify") % {"game": game.pk}
        )
    engine = engine_for(game)
    problems: list[str] = []
    bad: list[int] = []

    def problem(seq: int | None, message: str) -> None:
        problems.append(
            message
            if seq is None
            else _("move %(seq)s: %(problem)s") % {"seq": seq, "problem": message}
        )
        if seq is not None:
            bad.append(seq)

    if seed_hash(game.seed) != game.seed_hash:
        problem(None, _("the seed does not match the published seed hash"))
    moves = list(game.moves.select_related("seat").order_by("seq"))
    players = game.seats.count()
    state, events = engine.new_game(players, game.options, game.seed)
    checked = 0
    for index, move in enumerate(moves):
        if move.seq != index:
            problem(
                move.seq,
                _("the log has a gap or duplicate (expected seq %(seq)s)") % {"seq": index},
            )
            break
        if move.seq > 0 and move.command is not None:
            seat = move.seat.order if move.seat is not None else None
            try:
                command = engine.command_from_json(move.command)
                state, events = engine.apply(state, seat, command)
            except IllegalCommand as exc:
                problem(
                    move.seq,
                    _("the engine refuses '%(command)s' on replay: %(why)s")
                    % {"command": move.text, "why": exc},
                )
                break
        elif move.seq > 0:
            events = move.events  # a platform event (resignation): nothing to replay
        checked += 1
        if _canonical(events) != move.events:
            problem(move.seq, _("the replayed events differ from the logged ones"))
    if moves and moves[-1].seq != game.version:
        problem(
            None,
            _("the game's version is %(version)s but the log ends at %(last)s")
            % {"version": game.version, "last": moves[-1].seq},
        )
    if not problems and _canonical(state) != game.state:
        problem(None, _("the replayed final state differs from the saved snapshot"))
    return Verification(
        game_id=game.pk,
        ok=not problems,
        moves_checked=checked,
        problems=problems,
        first_bad_seq=min(bad) if bad else None,
    )


def export_game(*, game: Game | int) -> dict[str, Any]:
    """The game record as JSON: options, players, every command (text and JSON) with its
    events, the outcome; the seed only once the game has ended."""
    game = _fresh(game)
    seats = list(game.seats.select_related("user").order_by("order"))
    moves: list[Move] = list(game.moves.select_related("seat").order_by("seq"))
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": game.pk,
        "game_type": game.game_type,
        "options": game.options,
        "status": game.status,
        "created_at": _iso(game.created_at),
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "seed_hash": game.seed_hash or None,
        "seed": game.seed if game.status == Game.Status.FINISHED else None,
        "timeout_policy": {
            "turn_hours": game.turn_hours,
            "on_timeout": "default_command",
            "max_timeouts": game.max_timeouts,
            "vacation_days": game.vacation_days,
        },
        "players": [
            {
                "seat": s.order,
                "name": s.name,
                "colour": s.colour,
                "bot": s.bot or None,
                "resigned": s.resigned,
                "timeouts": s.timeouts,
            }
            for s in seats
        ],
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat.order if m.seat is not None else None,
                "source": m.source,
                "text": m.text,
                "command": m.command,
                "events": m.events,
                "at": _iso(m.created_at),
            }
            for m in moves
        ],
        "version": game.version,
        "outcome": game.outcome,
    }
    return record


def _fresh(game: Game | int) -> Game:
    """Read the game row now (a caller's instance may be older than the log)."""
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(_("there is no game #%(game)s") % {"game": pk}, game=pk) from None


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()
