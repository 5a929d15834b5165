"""The Django project package: settings, urls, the Celery app, WSGI/ASGI."""

from lords.celery import app as celery_app

__all__ = ["celery_app"]
