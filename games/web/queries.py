"""Reads for the web pages, composed from the selectors (``games/selectors.py``): one call
per page, so that each view calls one read and presents it. The visibility rule is the
selectors' own (``game_view``/``moves_since`` call ``check_visible``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import selectors
from games.models import Game, TradeOffer
from games.services.games import may_manage
from games.services.moves import engine_for

RECENT_MOVES = 40
"""How many log entries the board page shows (newest first)."""
FINISHED_SHOWN = 20
OFFERS_SHOWN = 10


def _offer(offer: TradeOffer, seat: int | None, waiting: set[int]) -> dict[str, Any]:
    """An offer with the buttons to offer the viewer (the services still decide)."""
    is_open = offer.status == TradeOffer.Status.OPEN
    return {
        "offer": offer,
        "may_answer": offer.pk in waiting,
        "may_withdraw": is_open and seat is not None and offer.proposer.order == seat,
        "accepted": is_open and seat is not None and seat in offer.accepted_by,
    }


def board_page(*, game_id: int, user: Any) -> dict[str, Any]:
    """What the board page shows to ``user``: the game as they may see it, the recent log
    and the trade offers, each with the answers offered to the viewer."""
    game = selectors.game_by_id(game_id=game_id)
    shown = selectors.game_view(game=game, user=user)  # refuses a private game first
    since = max(-1, game.version - RECENT_MOVES)
    seat = shown["your_seat"]
    offers: list[dict[str, Any]] = []
    if game.status == Game.Status.ACTIVE:
        waiting = {o.pk for o in selectors.offers_waiting_on(game=game, order=seat)}
        offers = [
            _offer(o, seat, waiting) for o in selectors.trade_offers(game=game)[:OFFERS_SHOWN]
        ]
    is_open = game.status == Game.Status.OPEN
    seated = seat is not None
    playing = (
        game.status == Game.Status.ACTIVE
        and seated
        and not any(s["resigned"] for s in shown["seats"] if s["order"] == seat)
    )
    return {
        "game": shown,
        "moves": selectors.moves_since(game=game, since=since, user=user),
        "older_moves": since >= 0,
        "offers": offers,
        "may_propose": playing and engine_for(game).trades,
        # Offer only what the services would accept (they still decide).
        "may_start": is_open and seated and may_manage(game, user),
        "may_join": is_open
        and not seated
        and not game.private
        and len(shown["seats"]) < game.max_seats,
    }


def lobby(*, user: Any) -> dict[str, list[Game]]:
    """The user's games by what they ask of them, then the games they may join."""

    def mine(status: str, waiting: bool | None = None) -> QuerySet[Game]:
        found = selectors.games_for_user(user=user, status=status, waiting=waiting)
        return found.prefetch_related("seats__user")

    return {
        "waiting": list(mine(Game.Status.ACTIVE, waiting=True)),
        "active": list(mine(Game.Status.ACTIVE, waiting=False)),
        "open": list(mine(Game.Status.OPEN)),
        "joinable": list(selectors.joinable_games(user=user).prefetch_related("seats__user")[:50]),
        "finished": list(mine(Game.Status.FINISHED)[:FINISHED_SHOWN]),
    }
