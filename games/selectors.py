"""Reads: what a player may see of games. Never replays the log (the snapshot serves), and
never shows the seed or any hidden order before the end (the engine's ``view`` strips them;
the seed is added here only once the game has finished)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.engines.base import GameEngine
from games.models import Game, Move, Seat
from games.services.errors import NotAllowed
from games.services.moves import engine_for


def games_for_user(
    *, user: Any, status: str | None = None, waiting: bool | None = None
) -> QuerySet[Game]:
    """The games the user holds a seat in, newest first; ``waiting=True``: only those that
    wait on the user now (``False``: only those that do not)."""
    seats = Seat.objects.filter(user=user)
    if waiting is not None:
        seats = seats.filter(to_act=waiting)
    games = Game.objects.filter(pk__in=seats.values("game_id"))
    if status is not None:
        games = games.filter(status=status)
    return games.select_related("created_by").order_by("-created_at", "-id")


def open_games(*, user: Any = None) -> QuerySet[Game]:
    """Public games waiting for players (the lobby)."""
    games = Game.objects.filter(status=Game.Status.OPEN, private=False)
    return games.order_by("-created_at", "-id")


def seat_for(*, game: Game, user: Any) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).first()


def may_see(*, game: Game, user: Any) -> bool:
    """Public games are open to everyone; private ones to their players, invitees, staff."""
    if not game.private or getattr(user, "is_staff", False):
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return (
        game.created_by_id == user.pk
        or game.seats.filter(user=user).exists()
        or game.invitations.filter(email__iexact=user.email).exists()
    )


def _check_visible(game: Game, user: Any) -> None:
    if not may_see(game=game, user=user):
        raise NotAllowed(f"game #{game.pk} is private")


def seat_names(game: Game) -> list[str]:
    """``names[order]`` for the engine's ``describe``."""
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.order)
    return [s.name for s in seats]


def game_view(*, game: Game, user: Any) -> dict[str, Any]:
    """The game as ``user`` may see it: the engine's view for their seat (a spectator's view
    if not seated), version, who must act, deadline, their legal commands, the public seed
    hash, and the seed only after the end."""
    _check_visible(game, user)
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.order)
    mine = next(
        (s for s in seats if s.user_id is not None and s.user_id == getattr(user, "pk", None)),
        None,
    )
    view: dict[str, Any] | None = None
    to_act: list[int] = []
    legal: list[dict[str, Any]] = []
    text = ""
    if game.state is not None:
        engine = engine_for(game)
        order = mine.order if mine is not None else None
        view = engine.view(game.state, order)
        text = engine.render_text(view)
        if game.status == Game.Status.ACTIVE:
            to_act = list(engine.to_act(game.state))
            if mine is not None and not mine.resigned and mine.order in to_act:
                legal = _legal(engine, game.state, mine.order)
    return {
        "id": game.pk,
        "game_type": game.game_type,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "private": game.private,
        "max_seats": game.max_seats,
        "turn_hours": game.turn_hours,
        "created_by": game.created_by_id,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "deadline": game.deadline,
        "seed_hash": game.seed_hash or None,
        "seed": game.seed if game.status == Game.Status.FINISHED else None,
        "seats": [
            {
                "order": s.order,
                "name": s.name,
                "colour": s.colour,
                "bot": s.bot or None,
                "user": s.user_id,
                "resigned": s.resigned,
                "to_act": s.order in to_act,
            }
            for s in seats
        ],
        "your_seat": mine.order if mine is not None else None,
        "to_act": to_act,
        "your_turn": mine is not None and mine.order in to_act and not mine.resigned,
        "legal_commands": legal,
        "view": view,
        "text": text,
        "outcome": game.outcome,
    }


def _legal(engine: GameEngine, state: dict[str, Any], order: int) -> list[dict[str, Any]]:
    return [
        {"text": engine.format(c), "command": c.to_json()}
        for c in engine.legal_commands(state, order)
    ]


def moves_since(*, game: Game, since: int = -1, user: Any = None) -> list[dict[str, Any]]:
    """The Moves with ``seq > since`` (a client at version ``v`` asks ``since=v``; the
    default -1 includes the setup, Move 0), each with its events described in sentences."""
    _check_visible(game, user)
    names = seat_names(game)
    engine = engine_for(game) if game.state is not None else None
    moves = Move.objects.filter(game=game, seq__gt=since).select_related("seat").order_by("seq")
    return [
        {
            "seq": m.seq,
            "seat": m.seat.order if m.seat is not None else None,
            "source": m.source,
            "text": m.text,
            "command": m.command,
            "events": m.events,
            "described": [_describe(engine, e, names) for e in m.events],
            "created_at": m.created_at,
        }
        for m in moves
    ]


def _describe(engine: GameEngine | None, event: dict[str, Any], names: list[str]) -> str:
    if event.get("type") == "resign":
        return f"{names[event['seat']]} resigned; a bot plays the seat on"
    if engine is None:
        return str(event.get("type", ""))
    try:
        return engine.describe(event, names)
    except Exception:  # a describe bug must never break reading the log
        return str(event.get("type", ""))
