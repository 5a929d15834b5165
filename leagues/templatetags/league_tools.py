"""``{% load league_tools %}{% game_tools game_id as tools %}``: what the game tools
partial (``templates/games/_tools.html``) needs, decided here, where leagues are known
(the games app imports nothing of the leagues)."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from leagues import manage

register = template.Library()


@register.simple_tag(takes_context=True)
def game_tools(context: Any, game_id: int) -> dict[str, Any] | None:
    """None unless the reader may use the tools on this running game; else the game's
    seats (to pick whom to replace) and whether it is paused."""
    request = context.get("request")
    if request is None or not manage.may_use_tools(game_id, request.user):
        return None
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None:
        return None
    seats = [(s.order, s.name) for s in game.seats.select_related("user").order_by("order")]
    return {"game": game.pk, "paused": game.paused_at is not None, "seats": seats}
