"""The Celery application: configured from Django's CELERY_* settings.

Workers start with ``celery -A harbormaster worker`` and the scheduler with
``celery -A harbormaster beat``; tasks are found in every installed app's
``tasks`` module.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harbormaster.settings")

app = Celery("harbormaster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
