"""A line that places a game in something bigger than itself ("League Vegas Nights, season
Autumn"), said by the apps built on the games: the notifications know none of them (as the
games know nothing of leagues), so an app registers a *framer* at start-up
(``leagues.apps``). The start and game-over emails show the line (docs/decisions/0036: a
season's start emails named neither the league nor the season)."""

from __future__ import annotations

from collections.abc import Callable

from games.models import Game

Framer = Callable[[Game], "str | None"]

_framers: list[Framer] = []


def register(framer: Framer) -> None:
    """Add ``framer`` (called with a game, in the reader's language: a line, or None when
    the game is not one of its app's); registering twice keeps one."""
    if framer not in _framers:
        _framers.append(framer)


def line(game: Game) -> str:
    """The first line a framer says of ``game``, or "" (an ordinary game)."""
    for framer in _framers:
        said = framer(game)
        if said:
            return str(said)
    return ""
