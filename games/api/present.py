"""The plain dicts the API answers, built from the selectors and the services' results.

Nothing here decides anything: the game view and the move log come from ``games.selectors``
(which hide the seed and every hidden order); this module only picks and shapes fields.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import selectors
from games.engines import registry
from games.models import Game, Invitation, Seat, TradeOffer
from games.services import MoveResult, Verification


def game_type(slug: str) -> dict[str, Any]:
    engine = registry.get_engine(slug)
    try:
        defaults = engine.normalize_options({}, engine.min_players)
    except ValueError:
        defaults = {}
    return {
        "slug": slug,
        "name": engine.name,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "default_options": defaults,
        "editions": {
            "option": engine.editions[0],
            "values": [{"value": v, "name": name} for v, name in engine.editions[1]],
        },
        "bots": list(engine.bots),
    }


def seat(s: Seat) -> dict[str, Any]:
    return selectors.seat_entry(s, to_act=s.to_act)


def game_summary(game: Game, user: Any) -> dict[str, Any]:
    """A line of "my games" (no engine work: the list stays cheap)."""
    seats = sorted(game.seats.all(), key=lambda s: s.order)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    return {
        **selectors.game_header(game),
        "seats": [seat(s) for s in seats],
        "your_seat": None if mine is None else mine.order,
        "your_turn": mine is not None and mine.to_act and not mine.resigned,
    }


def game_summaries(games: QuerySet[Game], user: Any) -> list[dict[str, Any]]:
    """Lines of "my games", their seats and players read in one query for all."""
    return [game_summary(game, user) for game in games.prefetch_related("seats__user")]


def move_log(game: Game, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A move may land between reading the game and reading the log: the version answered
    is never behind the log."""
    return {"version": max(game.version, moves[-1]["seq"] if moves else 0), "moves": moves}


def game_view(game: Game, user: Any, seats: list[Seat] | None = None) -> dict[str, Any]:
    return selectors.game_view(game=game, user=user, seats=seats)


def submission(result: MoveResult, user: Any) -> dict[str, Any]:
    """The answer to a submission (the Moves in the move log's shape, and what the game
    waits on right after them)."""
    return selectors.submission_answer(result=result, user=user)


def trade(offer: TradeOffer) -> dict[str, Any]:
    return {
        "id": offer.pk,
        "proposer": offer.proposer.order,
        "text": offer.text,
        "command": offer.command,
        "parties": offer.parties,
        "accepted_by": offer.accepted_by,
        "status": offer.status,
        "message": offer.message,
        "closed_by": None if offer.closed_by is None else offer.closed_by.order,
        "created_at": offer.created_at,
        "expires_at": offer.expires_at,
        "resolved_at": offer.resolved_at,
        "move": None if offer.move is None else offer.move.seq,
    }


def decisions(game: Game, user: Any) -> dict[str, Any]:
    """What the game waits on ``user`` for: their commands now, and the open offers they
    have still to answer."""
    view = selectors.game_view(game=game, user=user)
    waiting = selectors.offers_waiting_on(game=game, order=view["your_seat"])
    return {
        "version": view["version"],
        "your_seat": view["your_seat"],
        "your_turn": view["your_turn"],
        "legal_commands": view["legal_commands"],
        "trades": [trade(o) for o in waiting],
    }


def invitation(inv: Invitation) -> dict[str, Any]:
    """The inviter's answer: never the token, which only the email carries (the inviter
    holding it could answer in the invitee's stead, docs/decisions/0024)."""
    return {
        "id": inv.pk,
        "game": inv.game_id,
        "email": inv.email,
        "created_at": inv.created_at,
        "accepted_at": inv.accepted_at,
    }


def verification(v: Verification) -> dict[str, Any]:
    return v.to_json()
