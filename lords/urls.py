"""URL map: the admin, accounts (allauth), the REST API and its schema, notifications
(and the inbound email webhook)."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.web import views as web_views
from notifications.webhooks import PostmarkInbound

urlpatterns = [
    path("", web_views.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/v1/leagues/", include("leagues.api_urls")),  # before the games API's catch-all
    path("api/v1/profile/", include("accounts.api_urls")),  # (the same)
    path("api/v1/", include("games.api.urls")),
    path("leagues/", include("leagues.urls")),
    path("ratings/", include("leagues.rating_urls")),
    path("notifications/", include("notifications.urls")),
    # The inbound email webhook (notifications): Postmark's view refuses a bad payload with
    # a 400 (notifications/webhooks.py); anymail's own URLs for the rest.
    path("anymail/postmark/inbound/", PostmarkInbound.as_view(), name="inbound-postmark"),
    path("anymail/", include("anymail.urls")),
    path("games/", include("games.web.urls")),
    path("profile/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The "split" view serves Swagger UI's start-up script as a file (/api/docs/?script),
    # not inline, so the docs run under the site's policy, plus the data: images of Swagger
    # UI's stylesheet (docs/decisions/0010).
    path(
        "api/docs/",
        csp_update({"img-src": ["data:"]})(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="api-docs",
    ),
]

# Under /api/ Django's own answers (an unknown address, a refused request, a crash outside the
# API's views) are the API's JSON error shape; elsewhere Django's views, which draw the site's
# pages where it has them (templates/404.html, 403_csrf.html, 500.html; lords/api/errors.py).
handler400 = "lords.api.errors.bad_request"
handler403 = "lords.api.errors.permission_denied"
handler404 = "lords.api.errors.page_not_found"
handler500 = "lords.api.errors.server_error"
