"""URL map: the admin, accounts (allauth), the REST API and its schema, notifications
(and the inbound email webhook)."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/v1/leagues/", include("leagues.api_urls")),  # before the games API's catch-all
    path("api/v1/", include("games.api.urls")),
    path("leagues/", include("leagues.urls")),
    path("notifications/", include("notifications.urls")),
    path("anymail/", include("anymail.urls")),  # the inbound email webhook (notifications)
    path("games/", include("games.web.urls")),
    path("profile/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
