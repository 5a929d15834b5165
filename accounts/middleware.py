"""The signed-in player's saved language for the pages, as for their emails."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

LANGUAGES = {code for code, _name in settings.LANGUAGES}


class UserLanguageMiddleware:
    """After authentication: a signed-in user's ``language`` wins over the browser's
    Accept-Language (which LocaleMiddleware used for everyone before sign-in), so a
    player reads the site in the language their emails come in. An explicit choice in the
    language cookie still wins over both."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", None) if user is not None else None
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in LANGUAGES
        if not chosen and user is not None and user.is_authenticated and language in LANGUAGES:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
