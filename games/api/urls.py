"""REST API v1 routes (filled in by the platform core)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
