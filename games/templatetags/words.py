"""``{% load words %}`` ``{{ game.status|game_status }}``: the words a page shows for stored
values (statuses, where a move came from) in the reader's language. The stored value stays
the stable English code (the API's, the CSS class's); only what a person reads changes."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext, gettext_lazy

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


CLOSED_BECAUSE: dict[str, Any] = {
    "resigned": gettext_lazy("%(name)s resigned"),
    "forfeited": gettext_lazy("%(name)s forfeited after missed deadlines"),
    "replaced": gettext_lazy("a player was replaced"),
    "aborted": gettext_lazy("the game was aborted"),
    "ended": gettext_lazy("the game ended"),
    "parties": gettext_lazy("the turn changed: it would involve other players than those asked"),
    "the game ended": gettext_lazy("the game ended"),  # (as rows before 2026-11-24 say it)
}
"""Why the platform closed an offer (``trades.close_offers_of``, ``saving.finish``,
``trades.PARTIES_CHANGED``: its ``message``)."""

SAID_BY_THE_STATUS = {"expired"}
"""A ``message`` the offer's status says already ("expired (expired)")."""


@register.filter
def offer_note(offer: TradeOffer) -> str:
    """What an offer's line says after its status: why the platform closed it, or who
    declined or withdrew it, in the reader's words; else the engine's reason it failed."""
    name = offer.closed_by.name if offer.closed_by is not None else ""
    if offer.message in SAID_BY_THE_STATUS:
        return ""
    because = CLOSED_BECAUSE.get(offer.message)
    if because is not None:
        return str(because) % {"name": name}
    if offer.closed_by is not None:
        return gettext("by %(name)s") % {"name": name}
    return offer.message


@register.filter
def move_source(value: str) -> str:
    """ "email" -> "e-mail" for a French reader."""
    return _label(Move.Source.choices, value)
