"""The league pages, mounted at ``/leagues/`` (namespace ``leagues``). The REST endpoints
are in :mod:`leagues.api_urls` (``/api/v1/leagues/``)."""

from django.urls import path

from leagues import views

app_name = "leagues"

urlpatterns = [
    path("", views.league_list, name="list"),
    path("<slug:slug>/", views.league_detail, name="detail"),
    path("<slug:slug>/join/", views.join, name="join"),
    path("<slug:slug>/leave/", views.leave, name="leave"),
]
