"""The Django project: settings, URLs, the ASGI app and the Celery app.

The Celery app is imported here so that ``@shared_task`` functions bind to it
whenever Django starts (web server, worker or tests).
"""

from harbormaster.celery import app as celery_app

__all__ = ["celery_app"]
