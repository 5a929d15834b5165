"""How a player calls a seat and whom a game waits on, in the reader's language: "Black
(Ada)", "it is Black's turn (Ada), not yours". The refusals of every door use these."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.engines.base import GameEngine
from games.engines.registry import get_engine
from games.models import Game, Seat
from lords.elision import fit


def colour_name(engine: GameEngine | None, colour: str) -> str:
    """A colour's name in the active language ("Noir" for a French reader), as the engine
    names it; the bare colour, capitalised, when no engine is at hand."""
    if engine is None:
        return colour.capitalize()
    name = str(engine.colour_name(colour))
    return name[:1].upper() + name[1:]


def engine_of_seat(seat: Seat) -> GameEngine | None:
    """The engine of the seat's game (its game row if read already, else its type alone)."""
    game_type: str | None
    if Seat.game.is_cached(seat):
        game_type = seat.game.game_type
    else:
        game_type = Game.objects.filter(pk=seat.game_id).values_list("game_type", flat=True).first()
    return engine_of_type(game_type or "")


def engine_of_type(game_type: str) -> GameEngine | None:
    """The engine of a game type (None: not one this server has)."""
    try:
        return get_engine(game_type)
    except (LookupError, ImportError):
        return None


def seat_colour(seat: Seat, engine: GameEngine | None = None) -> str:
    """The seat's colour as its reader names it ("" for a seat without one)."""
    if not seat.colour:
        return ""
    return colour_name(engine or engine_of_seat(seat), seat.colour)


def seat_label(seat: Seat, engine: GameEngine | None = None) -> str:
    """How a player calls a seat: its colour and who plays it, "Black (Ada)" ("Noir (Ada)"
    for a French reader). ``engine``: the game's, when the caller has it at hand."""
    if not seat.colour:
        return seat.name
    return _("%(colour)s (%(name)s)") % {"colour": seat_colour(seat, engine), "name": seat.name}


def not_your_turn(
    waiting: Sequence[int], seats: Sequence[Seat], engine: GameEngine | None = None
) -> str:
    """Whom the game waits for, e.g. "it is Black's turn (Ada), not yours" (several seats
    when it waits on several): a refused player learns whom to wait for, not only that it
    is not them."""
    by_order = {s.order: s for s in seats}
    if len(waiting) == 1 and waiting[0] in by_order:
        seat = by_order[waiting[0]]
        if seat.colour:
            return _("it is %(colour)s's turn (%(name)s), not yours") % {
                "colour": seat_colour(seat, engine),
                "name": seat.name,
            }
        said = {"name": seat.name}
        return fit(_("it is %(name)s's turn, not yours"), said) % said
    labels = [
        seat_label(by_order[o], engine) if o in by_order else _("seat %(seat)s") % {"seat": o}
        for o in waiting
    ]
    if not labels:
        return _("the game waits on no one's command right now")
    if len(labels) == 1:
        listed = labels[0]
    else:
        listed = _("%(items)s and %(last)s") % {"items": ", ".join(labels[:-1]), "last": labels[-1]}
    return _("the game waits on %(seats)s, not on you") % {"seats": listed}
