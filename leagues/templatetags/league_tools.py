"""``{% load league_tools %}{% game_tools game as tools %}``: what the game tools
partial (``templates/games/_tools.html``) needs, decided here, where leagues are known
(the games app imports nothing of the leagues)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from games.models import Game
from leagues import manage, present

register = template.Library()


@register.simple_tag(takes_context=True)
def game_tools(context: Any, game: Mapping[str, Any]) -> dict[str, Any] | None:
    """None unless the reader may use the tools on this running game; else the game's
    seats (to pick whom to replace) and whether it is paused, as the page's game (``game``,
    the board page's view of it) shows them: the game is not read again."""
    request = context.get("request")
    if request is None or game["status"] != Game.Status.ACTIVE:
        return None
    if not manage.may_use_tools(game["id"], request.user):
        return None
    seats = [(s["order"], s["name"]) for s in game["seats"]]
    return {"game": game["id"], "paused": game["clock"]["paused"], "seats": seats}


@register.simple_tag
def game_season(game_id: int) -> dict[str, Any] | None:
    """The season a game belongs to, for its board page's link back (None: not a league's
    game). A game's season never changes, so the cached board page may keep it."""
    return present.season_of_game(game_id)
