"""Helpers of the web door tests: who must act, the form as the page drew it, and a
footprint of what a refused request must leave untouched."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from games.models import Game, Move, Seat, TradeOffer

HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')


def actor(game: Game) -> Any:
    """The user the game waits on (one person: the tests seat no bots in front of them)."""
    seat = Seat.objects.filter(game=game, to_act=True, user__isnull=False).first()
    assert seat is not None, "the game waits on nobody"
    return seat.user


def other(game: Game, user: Any) -> Any:
    seat = Seat.objects.filter(game=game, user__isnull=False).exclude(user=user).first()
    assert seat is not None
    return seat.user


def drawn_form(html: str) -> dict[str, str]:
    """The hidden fields of the move form as the page drew them."""
    form = html[html.index('id="move-form"') :]
    form = form[: form.index("</form>")]
    return dict(HIDDEN.findall(form))


def footprint(game: Game) -> tuple[Any, ...]:
    """What any write would change: the game row, its Moves, its offers."""
    game.refresh_from_db()
    return (
        game.version,
        game.status,
        game.state,
        list(Move.objects.filter(game=game).values_list("seq", "source", "text")),
        TradeOffer.objects.filter(game=game).count(),
    )


def page_text(html: str) -> str:
    """The page without its tags, whitespace squeezed (what a reader sees)."""
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html_lib.unescape(text))
