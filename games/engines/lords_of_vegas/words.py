"""The game's own words as :class:`~games.engines.text.Text`: colours, players called by
their colour, companies with their tile colour, the money notation.

Company names (Albion, Sphinx, Vega, Tivoli, Pioneer) are proper names and stay as printed;
colours are words and are translated. Every msgid is a literal in a ``_()`` call so that
``makemessages`` finds it.
"""

from __future__ import annotations

from games.engines.text import Text, _

from .board import COMPANY_COLOUR

COLOURS: dict[str, Text] = {
    "black": _("black"),
    "blue": _("blue"),
    "green": _("green"),
    "purple": _("purple"),
    "red": _("red"),
    "yellow": _("yellow"),
    "gold": _("gold"),
    "aqua": _("aqua"),
    "silver": _("silver"),
    "brown": _("brown"),
}
"""Seat colours and tile colours, as a word in a sentence ("the purple tiles")."""

PLAYERS: dict[str, Text] = {
    "black": _("Black"),
    "blue": _("Blue"),
    "green": _("Green"),
    "purple": _("Purple"),
    "red": _("Red"),
    "yellow": _("Yellow"),
}
"""A seat called by its colour, as the books call players ("it is Red's turn")."""

NOBODY = _("nobody")


def colour(name: str) -> Text | str:
    """A colour's word; an unknown id is shown as it is rather than refused."""
    return COLOURS.get(name, name)


def player(name: str) -> Text | str:
    """A seat's colour as a player's name ("Red")."""
    return PLAYERS.get(name, name.capitalize())


def company(name: str) -> str:
    """A company's proper name, as printed ("Sphinx"): never translated."""
    return name.capitalize()


def company_with_colour(edition: str, name: str) -> Text:
    """ "Sphinx (gold)": the company and its tile colour in this edition."""
    return _(
        "%(company)s (%(colour)s)",
        company=company(name),
        colour=colour(COMPANY_COLOUR[edition][name]),
    )


def money(amount: int) -> Text:
    """ "$20m": an amount in millions, as the books write it."""
    return _("$%(amount)sm", amount=amount)
