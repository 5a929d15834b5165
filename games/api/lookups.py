"""Finding the object a URL names, with the selectors' visibility rule.

The contract's selectors take model objects; these small reads turn a URL's ids into them
(404 in the one error shape when there is none) and apply ``selectors.check_visible``, the
one visibility rule (private games: their players, invitees and staff only; 403 for anyone
else).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games import selectors
from games.models import Game, Seat, TradeOffer
from games.services import rows
from games.services.errors import GameNotActive, NotFound


def game(game_id: int) -> Game:
    return selectors.game_by_id(game_id=game_id)


def visible_game_with_seats(game_id: int, user: Any) -> tuple[Game, list[Seat]]:
    """:func:`visible_game` with its seats and their users, read in one statement (the game
    view: ``rows.game_with_seats``)."""
    found = rows.game_with_seats(game_id)
    if found is None:
        raise NotFound(gettext("there is no game #%(game)s") % {"game": game_id}, game=game_id)
    selectors.check_visible(game=found[0], user=user)
    return found


def visible_game(game_id: int, user: Any) -> Game:
    """The game, if ``user`` may see it (403 for someone else's private game)."""
    found = game(game_id)
    selectors.check_visible(game=found, user=user)
    return found


def joinable_game(game_id: int, user: Any, token: str | None) -> Game:
    """An invitation token makes a private game visible to whoever holds it; the service
    checks the token itself."""
    return game(game_id) if token else visible_game(game_id, user)


def finished_game(game_id: int, user: Any) -> Game:
    """Verification replays from the seed, which is secret until the end."""
    found = visible_game(game_id, user)
    if found.status != Game.Status.FINISHED:
        said = {"game": game_id, "status": Game.Status(found.status).label}
        raise GameNotActive(
            gettext(
                "game #%(game)s is %(status)s: it can be verified once it is over and its "
                "seed is revealed"
            )
            % said,
            status_now=found.status,
        )
    return found


def offer(game_id: int, offer_id: int, user: Any) -> TradeOffer:
    """An offer of that game (an offer id from another game is not found here)."""
    return selectors.offer_in_game(game=visible_game(game_id, user), offer_id=offer_id)
