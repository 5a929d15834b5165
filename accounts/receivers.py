"""What accounts does when allauth signs someone up."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

LANGUAGES = {code for code, _name in settings.LANGUAGES}


def language_from_the_browser(
    sender: Any, *, request: HttpRequest, user: Any, **kwargs: Any
) -> None:
    """A new player's language starts as the one their browser asked for (LocaleMiddleware
    read Accept-Language): their emails and pages are then in it until they change it."""
    language = getattr(request, "LANGUAGE_CODE", None)
    if language in LANGUAGES and language != user.language:
        user.language = language
        user.save(update_fields=["language"])
