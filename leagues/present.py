"""The plain dicts the league doors show (the API answers them; the web pages render them).
Nothing here decides anything: it picks and shapes what :mod:`leagues.selectors` read."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games.engines import registry
from leagues import selectors
from leagues.models import League, Season, SeasonGame


def _name(user: Any) -> str:
    return user.name if user is not None else "?"


def _when(value: Any) -> str | None:
    return value.isoformat() if value else None


def league_summary(league: League) -> dict[str, Any]:
    return {
        "slug": league.slug,
        "name": league.name,
        "game_type": league.game_type,
        "game_name": registry.get_engine(league.game_type).name
        if league.game_type in registry.slugs()
        else league.game_type,
        "options": league.options,
        "description": league.description,
        "open": league.open,
        "members": league.memberships.count(),
        "admins": sorted(_name(u) for u in league.admins.all()),
    }


def season_label(s: Season) -> str:
    """A season as a sentence names it: its name, else its number ("season 2")."""
    return s.name or str(s.number)


def game_frame(game: Any) -> str | None:
    """ "League Vegas Nights, season Autumn" for a season's game (None for any other game):
    the line its start and game-over emails carry, in the reader's language."""
    link = SeasonGame.objects.select_related("season__league").filter(game_id=game.pk).first()
    if link is None:
        return None
    return _("League %(league)s, season %(season)s") % {
        "league": link.season.league.name,
        "season": season_label(link.season),
    }


def season_of_game(game_id: int) -> dict[str, Any] | None:
    """The season a game belongs to, as its board page links to it (None: no league's)."""
    link = SeasonGame.objects.select_related("season__league").filter(game_id=game_id).first()
    if link is None:
        return None
    league = link.season.league
    return {
        "league": league.name,
        "title": link.season.title,
        "url": reverse("leagues:detail", kwargs={"slug": league.slug})
        + f"?season={link.season.number}",
    }


def season_game(link: SeasonGame) -> dict[str, Any]:
    game = link.game
    seats = sorted(game.seats.all(), key=lambda s: s.order)
    return {
        "id": game.pk,
        "round": link.round,
        "status": game.status,
        "url": reverse("web:game", kwargs={"game_id": game.pk}),
        "players": [s.name for s in seats],
        "winners": [s.name for s in seats if s.order in (game.outcome or {}).get("winners", [])],
    }


def season(s: Season, *, games: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": s.number,
        "title": s.title,
        "status": s.status,
        "players_per_game": s.players_per_game,
        "rounds": s.rounds,
        "turn_hours": s.turn_hours,
        "max_timeouts": s.max_timeouts,
        "vacation_days": s.vacation_days,
        "starts_at": _when(s.starts_at),
        "ends_at": _when(s.ends_at),
        "started_at": _when(s.started_at),
        "finished_at": _when(s.finished_at),
        "pairing_seed": s.pairing_seed,
        "enrolment_open": s.enrolment_open,
        "smallest_table": s.smallest_table,
        "divisions": s.divisions,
        "entries": [e.user.name for e in s.entries.select_related("user")],
    }
    if games:
        out["games"] = [season_game(g) for g in selectors.season_games(season=s)]
    return out


def league_detail(league: League) -> dict[str, Any]:
    return {
        **league_summary(league),
        "seasons": [season(s) for s in selectors.seasons(league=league)],
    }


def standings(league: League, number: int | None) -> dict[str, Any]:
    """The season's table (the current season unless ``number``) and the league's ratings."""
    found = selectors.season_by_number(league=league, number=number)
    table = [] if found is None else selectors.season_standings(season=found)
    return {
        "league": league.slug,
        "season": None if found is None else season(found, games=True),
        "table": [
            {
                "position": line.position,
                "shared": line.shared,
                "player": _name(line.user),
                "player_id": getattr(line.user, "pk", None),
                "played": line.played,
                "wins": line.wins,
                "points": line.points,
                "rating": line.rating,
            }
            for line in table
        ],
        "ratings": [
            {
                "player": _name(line.user),
                "player_id": getattr(line.user, "pk", None),
                "ordinal": line.ordinal,
                "mu": line.mu,
                "sigma": line.sigma,
                "games": line.games,
            }
            for line in selectors.league_ratings(league=league)
        ],
    }
