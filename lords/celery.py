"""The Celery app. Tasks are thin: they take ids and call services."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lords.settings")

app = Celery("lords")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
