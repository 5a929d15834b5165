"""The rating pages, mounted at ``/ratings/`` (namespace ``ratings``)."""

from django.urls import path

from leagues import rating_views as views

app_name = "ratings"

urlpatterns = [
    path("", views.index, name="index"),
    path("players/<int:user_id>/", views.player, name="player"),
    path("<slug:game_type>/", views.board, name="board"),
]
