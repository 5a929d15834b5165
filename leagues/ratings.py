"""Ratings for everyone: one OpenSkill rating per player and game type, from every finished
rated game of that type (league or not).

Computed on read from the finished games (:func:`leagues.standings.ratings`, the league's
own OpenSkill code, applied in the order the games finished), so a rating can never
disagree with the games and nothing has to be updated when a game ends (no receiver to
replay out of order, nothing to repair). The result is cached per game type under a key
made of what would change it: how many finished rated games there are, the last one's id
and when it finished; a new finished game makes a new key. The cache lives an hour, so
whatever the key cannot see (a player's account deleted) shows within the hour.

A player is **provisional** until :data:`PROVISIONAL_GAMES` rated games; the leaderboard
ranks the others and lists the provisional ones after them. Bots are not rated; a game
with fewer than two rated players changes nothing. See
``docs/decisions/0014-league-admins.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max

from accounts.models import User
from games.engines import registry
from games.models import Game
from leagues import standings
from leagues.selectors import result_of

PROVISIONAL_GAMES = 5
"""Rated games a player needs before their rating is ranked (until then: provisional)."""

CACHE_SECONDS = 3600


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one game type."""

    game_type: str
    user_id: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The shown value: mu - 3 sigma, rounded to two places."""
        return round(self.mu - 3 * self.sigma, 2)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def rated_games(game_type: str) -> Any:
    """The games that count: finished, rated, of ``game_type``, in the order they finished."""
    return Game.objects.filter(
        game_type=game_type, status=Game.Status.FINISHED, rated=True
    ).order_by("finished_at", "id")


def _compute(game_type: str) -> dict[int, PlayerRating]:
    results = [r for r in map(result_of, rated_games(game_type).prefetch_related("seats")) if r]
    rated = standings.ratings(results)
    played: dict[int, int] = {}
    for result in results:
        if len(result.placings) >= 2:  # what ``standings.rate`` counts
            for placing in result.placings:
                played[placing.player] = played.get(placing.player, 0) + 1
    return {
        player: PlayerRating(game_type, player, r.mu, r.sigma, played.get(player, 0))
        for player, r in rated.items()
    }


def _key(game_type: str) -> str:
    """A key that changes whenever a rated game of this type finishes (or stops counting)."""
    seen = (
        rated_games(game_type)
        .order_by()
        .aggregate(n=Count("id"), last=Max("id"), when=Max("finished_at"))
    )
    when = seen["when"].isoformat() if seen["when"] else "-"
    return f"ratings:v1:{game_type}:{seen['n']}:{seen['last']}:{when}"


def ratings(game_type: str) -> dict[int, PlayerRating]:
    """Every rated player of ``game_type`` (a user id -> their rating)."""
    key = _key(game_type)
    found = cache.get(key)
    if found is None:
        found = _compute(game_type)
        cache.set(key, found, CACHE_SECONDS)
    return dict(found)


@dataclass(frozen=True)
class Line:
    """A leaderboard line: a position (``None`` while provisional), the player, the rating."""

    position: int | None
    user: Any
    rating: PlayerRating


def leaderboard(game_type: str) -> tuple[list[Line], list[Line]]:
    """The ranked players (highest ordinal first) and, apart, the provisional ones (most
    games first). Players whose account is gone or closed are left out."""
    rated = ratings(game_type)
    users = User.objects.filter(is_active=True).in_bulk(list(rated))
    present = [r for r in rated.values() if r.user_id in users]
    ranked = sorted(
        (r for r in present if not r.provisional), key=lambda r: (-r.ordinal, r.user_id)
    )
    waiting = sorted(
        (r for r in present if r.provisional), key=lambda r: (-r.games, -r.ordinal, r.user_id)
    )
    lines = [Line(i, users[r.user_id], r) for i, r in enumerate(ranked, start=1)]
    return lines, [Line(None, users[r.user_id], r) for r in waiting]


def player_ratings(user: Any) -> list[PlayerRating]:
    """A player's rating in each game type they have a rated game of (by game name)."""
    played = (
        Game.objects.filter(status=Game.Status.FINISHED, rated=True, seats__user=user)
        .values_list("game_type", flat=True)
        .distinct()
    )
    found = [ratings(t).get(user.pk) for t in sorted(set(played)) if t in registry.slugs()]
    return [r for r in found if r is not None]
