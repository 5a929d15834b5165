"""League API routes, mounted at ``/api/v1/leagues/`` (before the games API, whose last
route answers every unknown address with the one 404 shape: an address under
``/api/v1/leagues/`` that matches nothing here falls through to it)."""

from django.urls import URLPattern, URLResolver
from rest_framework.routers import SimpleRouter

from leagues import api

app_name = "leagues-api"

router = SimpleRouter(use_regex_path=False)
router.register("", api.LeagueViewSet, basename="league")

urlpatterns: list[URLPattern | URLResolver] = [*router.urls]
