"""The web door's pages, mounted at ``/games/`` (namespace ``web``)."""

from django.urls import path

from games.web import views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("<int:game_id>/", views.game, name="game"),
    path("<int:game_id>/join/", views.join, name="join"),
    path("<int:game_id>/start/", views.start, name="start"),
]
