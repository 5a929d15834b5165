"""``{% load words %}`` ``{{ game.status|game_status }}``: the words a page shows for stored
values (statuses, where a move came from) in the reader's language. The stored value stays
the stable English code (the API's, the CSS class's); only what a person reads changes."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game, Move, TradeOffer

register = template.Library()


def _label(choices: Any, value: Any) -> str:
    """The choice's label, rendered now (a value not among the choices is shown as it is)."""
    return str(dict(choices).get(value, value))


@register.filter
def game_status(value: str) -> str:
    """ "active" -> "en cours" for a French reader."""
    return _label(Game.Status.choices, value)


@register.filter
def offer_status(value: str) -> str:
    """ "declined" -> "refusée" for a French reader."""
    return _label(TradeOffer.Status.choices, value)


@register.filter
def move_source(value: str) -> str:
    """ "email" -> "e-mail" for a French reader."""
    return _label(Move.Source.choices, value)
