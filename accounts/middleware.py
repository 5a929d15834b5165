"""The signed-in player's saved language and time zone for the pages, as for their emails."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.models import zone_named

LANGUAGES = {code for code, _name in settings.LANGUAGES}
API = "/api/"


class UserPreferencesMiddleware:
    """After authentication: a signed-in user's ``language`` wins over the browser's
    Accept-Language (which LocaleMiddleware used for everyone before sign-in), so a
    player reads the site in the language their emails come in. An explicit choice in the
    language cookie still wins over both. Their ``time_zone`` is active for the whole
    request, so every page (a league's as much as a game's) shows their times; a visitor
    reads UTC. Not under ``/api/``: the API writes and reads times in UTC whoever calls it
    (a browser's session there read a naive ``expires_at`` in the player's zone, a token
    in UTC: found by review)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        language = getattr(user, "language", None)
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in LANGUAGES
        if not chosen and language in LANGUAGES:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        if request.path_info.startswith(API):
            return self.get_response(request)
        timezone.activate(zone_named(getattr(user, "time_zone", None)))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
