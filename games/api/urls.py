"""REST API v1 routes (mounted at ``/api/v1/``). See ``docs/api.md``.

The game viewsets are routed by a router with Django path converters (``<int:game_id>``), so
an id that is not a number never reaches a view: it falls through to the one 404 shape of
:func:`not_found_view`, like any unknown address. The trade offers are nested in their game.
"""

from django.urls import URLPattern, URLResolver, path, re_path
from rest_framework.routers import SimpleRouter

from accounts import api as accounts_api
from games.api import stream, talk, views, webhooks
from lords.api.errors import not_found_view

app_name = "api"

router = SimpleRouter(use_regex_path=False)
router.register("game-types", views.GameTypeViewSet, basename="game-type")
router.register("games", views.GameViewSet, basename="game")
router.register("games/<int:game_id>/trades", views.TradeOfferViewSet, basename="trade")
router.register("games/<int:game_id>/chat", talk.ChatViewSet, basename="chat")

urlpatterns: list[URLPattern | URLResolver] = [
    *router.urls,
    # One resource, not a collection (a router's "list" would be described as an array).
    path(
        "games/<int:game_id>/notes/",
        talk.NoteViewSet.as_view({"get": "read", "post": "write"}),
        name="notes",
    ),
    path("events/", stream.EventStreamView.as_view(), name="events"),
    path("webhooks/", webhooks.WebhookListView.as_view(), name="webhooks"),
    path("webhooks/<int:hook_id>/", webhooks.WebhookDetailView.as_view(), name="webhook"),
    path("me/", accounts_api.ProfileView.as_view(), name="me"),
    path("tokens/", accounts_api.TokenListCreateView.as_view(), name="tokens"),
    path("tokens/<str:token_key>/", accounts_api.TokenDetailView.as_view(), name="token"),
    re_path(r"^.*$", not_found_view, name="not-found"),
]
