"""The rating pages (mounted at ``/ratings/``, namespace ``ratings``): a leaderboard per
game type and a player's ratings. Read-only; signed-in players only, like the league pages
(names are shown to other players, not to the whole web)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods

from accounts.models import User
from games.engines import registry
from leagues import ratings


def _game_types() -> list[dict[str, str]]:
    return [{"slug": s, "name": registry.get_engine(s).name} for s in registry.slugs()]


@login_required
@require_http_methods(["GET", "HEAD"])
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "leagues/ratings.html", {"game_types": _game_types()})


@login_required
@require_http_methods(["GET", "HEAD"])
def board(request: HttpRequest, game_type: str) -> HttpResponse:
    if game_type not in registry.slugs():
        raise Http404(game_type)
    ranked, provisional = ratings.leaderboard(game_type)
    context = {
        "game_type": game_type,
        "game_name": registry.get_engine(game_type).name,
        "game_types": _game_types(),
        "ranked": ranked,
        "provisional": provisional,
        "needed": ratings.PROVISIONAL_GAMES,
    }
    return render(request, "leagues/leaderboard.html", context)


@login_required
@require_http_methods(["GET", "HEAD"])
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    shown = get_object_or_404(User, pk=user_id, is_active=True)
    names = {t["slug"]: t["name"] for t in _game_types()}
    rows = [{"name": names[r.game_type], "rating": r} for r in ratings.player_ratings(shown)]
    context = {
        "shown": shown,
        "rows": rows,
        "mine": shown.pk == request.user.pk,
        "needed": ratings.PROVISIONAL_GAMES,
    }
    return render(request, "leagues/player.html", context)
