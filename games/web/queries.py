"""Reads for the web pages, composed from the selectors (``games/selectors.py``): one call
per page, so that each view calls one read and presents it. The visibility rule is the
selectors' own (``game_view``/``moves_since`` call ``check_visible``).

``joinable_games`` is the one read the selectors do not offer yet (the public open games
with a free seat that the user is not in); it is a plain query and belongs in the selectors
once another door needs it."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, QuerySet

from games import selectors
from games.models import Game, TradeOffer
from games.services.errors import NotFound

RECENT_MOVES = 40
"""How many log entries the board page shows (newest first)."""
FINISHED_SHOWN = 20


def find_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"there is no game #{game_id}", game=game_id)
    return game


def board_page(*, game_id: int, user: Any) -> dict[str, Any]:
    """What the board page shows to ``user``: the game as they may see it, the recent log
    and the trade offers (read-only on the web for now)."""
    game = find_game(game_id)
    shown = selectors.game_view(game=game, user=user)  # refuses a private game first
    since = max(-1, game.version - RECENT_MOVES)
    offers: list[TradeOffer] = []
    if game.status == Game.Status.ACTIVE:
        offers = list(selectors.trade_offers(game=game)[:10])
    return {
        "game": shown,
        "moves": selectors.moves_since(game=game, since=since, user=user),
        "older_moves": since >= 0,
        "offers": offers,
    }


def joinable_games(*, user: Any) -> QuerySet[Game]:
    """Open public games with a free seat that ``user`` does not sit in, oldest first."""
    return (
        Game.objects.filter(status=Game.Status.OPEN, private=False)
        .exclude(seats__user=user)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("max_seats"))
        .order_by("created_at", "id")
    )


def lobby(*, user: Any) -> dict[str, list[Game]]:
    """The user's games by what they ask of them, then the games they may join."""

    def mine(status: str, waiting: bool | None = None) -> QuerySet[Game]:
        found = selectors.games_for_user(user=user, status=status, waiting=waiting)
        return found.prefetch_related("seats__user")

    return {
        "waiting": list(mine(Game.Status.ACTIVE, waiting=True)),
        "active": list(mine(Game.Status.ACTIVE, waiting=False)),
        "open": list(mine(Game.Status.OPEN)),
        "joinable": list(joinable_games(user=user).prefetch_related("seats__user")[:50]),
        "finished": list(mine(Game.Status.FINISHED)[:FINISHED_SHOWN]),
    }
