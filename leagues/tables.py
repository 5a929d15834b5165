"""How a season's players sit: the table sizes, said before anything starts.

Pure functions (no database): the season page's preview and :func:`leagues.services.
start_season` use the same plan, so what the admin read is what is drawn. Tables of a
season of N a table are as few as possible and as even as possible (sizes differ by one
at most), and never smaller than the season's smallest table (by default N: every table
full). When the players cannot sit so, the plan is a refusal that says what would work:
more players, fewer, or smaller tables. Games of 2 are a round robin (everyone meets
everyone). See docs/decisions/0014-league-admins.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


@dataclass(frozen=True)
class Plan:
    """``sizes``: the tables of one round (empty when refused); ``text``: the sentence
    the admin reads (the sizes, or why not and what would work)."""

    players: int
    per_table: int
    sizes: list[int] = field(default_factory=list)
    text: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.sizes)


def sizes(players: int, per_table: int, smallest: int) -> list[int]:
    """The table sizes, largest first, or [] when they would break the smallest table."""
    if players < max(2, smallest):
        return []
    count = -(-players // per_table)
    base, extra = divmod(players, count)
    if base < smallest:
        return []
    return [base + 1] * extra + [base] * (count - extra)


def listed(numbers: list[int]) -> str:
    """``3, 2 and 2`` in the active language."""
    words = [str(n) for n in numbers]
    if len(words) == 1:
        return words[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def plan(players: int, per_table: int, smallest: int | None = None) -> Plan:
    """The tables of ``players`` at ``per_table`` a table, explained."""
    if per_table == 2:
        return _round_robin(players)
    least = per_table if smallest is None else min(max(2, smallest), per_table)
    found = sizes(players, per_table, least)
    if found:
        text = ngettext(
            "%(players)s players at %(size)s a table: one table of %(sizes)s",
            "%(players)s players at %(size)s a table: tables of %(sizes)s",
            len(found),
        ) % {"players": players, "size": per_table, "sizes": listed(found)}
        return Plan(players, per_table, found, text)
    return Plan(players, per_table, [], _refusal(players, per_table, least))


def _round_robin(players: int) -> Plan:
    if players < 2:
        return Plan(players, 2, [], _refusal(players, 2, 2))
    rounds = players if players % 2 else players - 1
    if players == 2:  # (it read "a round robin of 1 rounds, 1 games in all")
        text = _("2 players at 2 a table: one game")
    elif players % 2:
        text = _(
            "%(players)s players at 2 a table: a round robin of %(rounds)s rounds, %(games)s "
            "games in all; one player sits out each round"
        )
    else:
        text = _(
            "%(players)s players at 2 a table: a round robin of %(rounds)s rounds, %(games)s "
            "games in all"
        )
    games = players * (players - 1) // 2
    return Plan(
        players,
        2,
        [2] * (players // 2),
        text % {"players": players, "rounds": rounds, "games": games},
    )


def _refusal(players: int, per_table: int, smallest: int) -> str:
    """Why not, and the nearest counts of players that would sit (and the smallest table
    that would let these players sit). Fewer players than the fewest who can sit: how many
    to enter (it read "0 players cannot all sit at tables of 2...: enter 2 more players")."""
    more = next(
        n for n in range(players + 1, players + 2 * per_table + 2) if sizes(n, per_table, smallest)
    )
    least = next(n for n in range(2, more + 1) if sizes(n, per_table, smallest))
    if players == 0:
        return _("nobody has entered yet: enter at least %(least)s players") % {"least": least}
    if players < least:
        return ngettext(
            "only %(players)s player has entered: enter %(count)s more (at least %(least)s)",
            "only %(players)s players have entered: enter %(count)s more (at least %(least)s)",
            players,
        ) % {"players": players, "count": least - players, "least": least}
    fewer = next((n for n in range(players - 1, 1, -1) if sizes(n, per_table, smallest)), None)
    options = [
        ngettext(
            "enter %(count)s more player (%(total)s)",
            "enter %(count)s more players (%(total)s)",
            more - players,
        )
        % {"count": more - players, "total": more}
    ]
    if fewer:
        options.append(
            ngettext(
                "withdraw %(count)s player (%(total)s)",
                "withdraw %(count)s players (%(total)s)",
                players - fewer,
            )
            % {"count": players - fewer, "total": fewer}
        )
    allowed = [n for n in range(smallest - 1, 1, -1) if sizes(players, per_table, n)]
    if allowed:
        options.append(_("allow tables of %(size)s") % {"size": allowed[0]})
    return _(
        "%(players)s players cannot all sit at tables of %(size)s (the smallest allowed is "
        "%(smallest)s): %(options)s"
    ) % {
        "players": players,
        "size": per_table,
        "smallest": smallest,
        "options": _(" or ").join(options),
    }


def season_plans(season: Any, entries: Sequence[Any]) -> list[Plan]:
    """One plan per division of ``season`` (``entries``: its SeasonEntry rows), in
    division order; a division nobody is in is left out (a first season of several
    divisions has everyone in the lowest), but for the first when nobody entered at all."""
    out = []
    for division in range(1, season.divisions + 1):
        count = sum(1 for e in entries if e.division == division)
        if count or (division == 1 and not entries):
            out.append(plan(count, season.players_per_game, season.smallest_table))
    return out
