"""Reads for the league doors (web pages, API): leagues, seasons, their games, standings and
ratings. Standings are computed from the finished games' outcomes on every read (pure
functions in :mod:`leagues.standings`); nothing is cached, so they can never disagree with
the games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game
from games.services.errors import NotFound
from leagues import standings
from leagues.models import League, Season, SeasonGame


def leagues() -> QuerySet[League]:
    return League.objects.all()


def league_by_slug(*, slug: str) -> League:
    """The league a URL names, or :class:`NotFound` (the doors' 404)."""
    found = League.objects.filter(slug=slug).first()
    if found is None:
        raise NotFound(_("there is no league '%(league)s'") % {"league": slug}, league=slug)
    return found


def seasons(*, league: League) -> QuerySet[Season]:
    return league.seasons.order_by("-number")


def season_by_number(*, league: League, number: int | None) -> Season | None:
    """Season ``number`` of the league, or (``None``) the current one: the latest that has
    started, else the latest draft; ``None`` if the league has no season yet."""
    if number is not None:
        found = league.seasons.filter(number=number).first()
        if found is None:
            said = {"league": league.name, "n": number}
            raise NotFound(_("%(league)s has no season %(n)s") % said, season=number)
        return found
    started = league.seasons.exclude(status=Season.Status.DRAFT).order_by("-number").first()
    return started or league.seasons.order_by("-number").first()


def season_games(*, season: Season) -> QuerySet[SeasonGame]:
    return season.season_games.select_related("game").prefetch_related("game__seats__user")


def result_of(game: Game) -> standings.Result | None:
    """A finished game's placings keyed by user id (``None`` while it runs)."""
    if game.status != Game.Status.FINISHED or not game.outcome:
        return None
    users = {seat.order: seat.user_id for seat in game.seats.all()}
    placings = tuple(
        standings.Placing(
            player=users[p["seat"]], rank=int(p["rank"]), resigned=bool(p.get("resigned"))
        )
        for p in game.outcome.get("placings", [])
        if users.get(p["seat"]) is not None
    )
    return standings.Result(game_id=game.pk, placings=placings)


def _results(games: QuerySet[Game]) -> list[standings.Result]:
    finished = games.filter(status=Game.Status.FINISHED).order_by("finished_at", "id")
    found = (result_of(g) for g in finished.prefetch_related("seats"))
    return [r for r in found if r is not None]


@dataclass(frozen=True)
class Line:
    """One line of a standings table, for the doors."""

    position: int
    shared: bool
    user: Any
    played: int
    wins: int
    points: float
    rating: float


def season_standings(*, season: Season) -> list[Line]:
    """The season's table (every entered player, with or without games), with each
    player's league rating ordinal (after every finished game of the league)."""
    results = _results(Game.objects.filter(season_game__season=season))
    entered = list(season.entries.values_list("user_id", flat=True))
    table = standings.standings(results, entered)
    rated = standings.ratings(
        _results(Game.objects.filter(season_game__season__league=season.league))
    )
    users = User.objects.in_bulk([row.player for row in table])
    return [
        Line(
            position=row.position,
            shared=row.shared,
            user=users.get(row.player),
            played=row.played,
            wins=row.wins,
            points=float(row.points),
            rating=round(rated.get(row.player, standings.DEFAULT).ordinal, 2),
        )
        for row in table
    ]


@dataclass(frozen=True)
class RatingLine:
    user: Any
    ordinal: float
    mu: float
    sigma: float
    games: int


def league_ratings(*, league: League) -> list[RatingLine]:
    """Every player of a finished league game, by rating ordinal (highest first)."""
    results = _results(Game.objects.filter(season_game__season__league=league))
    rated = standings.ratings(results)
    played: dict[Any, int] = {}
    for result in results:
        for placing in result.placings:
            played[placing.player] = played.get(placing.player, 0) + 1
    users = User.objects.in_bulk(list(rated))
    lines = [
        RatingLine(
            user=users.get(player),
            ordinal=round(r.ordinal, 2),
            mu=round(r.mu, 3),
            sigma=round(r.sigma, 3),
            games=played.get(player, 0),
        )
        for player, r in rated.items()
    ]
    return sorted(lines, key=lambda line: (-line.ordinal, getattr(line.user, "pk", 0)))


def is_member(*, league: League, user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and (
        league.memberships.filter(user=user).exists()
    )
