"""REST API v1 routes (mounted at ``/api/v1/``). See ``docs/api.md``."""

from django.urls import URLPattern, URLResolver, path, re_path

from accounts import api as accounts_api
from games.api import views
from games.api.errors import not_found_view

app_name = "api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("game-types/", views.GameTypeListView.as_view(), name="game-types"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/join/", views.JoinView.as_view(), name="game-join"),
    path("games/<int:game_id>/leave/", views.LeaveView.as_view(), name="game-leave"),
    path("games/<int:game_id>/bots/", views.BotView.as_view(), name="game-bots"),
    path("games/<int:game_id>/start/", views.StartView.as_view(), name="game-start"),
    path("games/<int:game_id>/resign/", views.ResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/invitations/", views.InviteView.as_view(), name="game-invite"),
    path("games/<int:game_id>/moves/", views.MovesView.as_view(), name="game-moves"),
    path("games/<int:game_id>/decisions/", views.DecisionsView.as_view(), name="game-decisions"),
    path("games/<int:game_id>/trades/", views.TradeListView.as_view(), name="game-trades"),
    path(
        "games/<int:game_id>/trades/<int:offer_id>/accept/",
        views.TradeAcceptView.as_view(),
        name="trade-accept",
    ),
    path(
        "games/<int:game_id>/trades/<int:offer_id>/decline/",
        views.TradeDeclineView.as_view(),
        name="trade-decline",
    ),
    path(
        "games/<int:game_id>/trades/<int:offer_id>/withdraw/",
        views.TradeWithdrawView.as_view(),
        name="trade-withdraw",
    ),
    path("games/<int:game_id>/verify/", views.VerifyView.as_view(), name="game-verify"),
    path("games/<int:game_id>/export/", views.ExportView.as_view(), name="game-export"),
    path("me/", accounts_api.ProfileView.as_view(), name="me"),
    path("tokens/", accounts_api.TokenListCreateView.as_view(), name="tokens"),
    path("tokens/<str:token_key>/", accounts_api.TokenDetailView.as_view(), name="token"),
    re_path(r"^.*$", not_found_view, name="not-found"),
]
