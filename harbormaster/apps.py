"""App configuration for ``harbormaster`` (the project's own modules)."""

from django.apps import AppConfig


class HarbormasterConfig(AppConfig):
    name = "harbormaster"
    verbose_name = "Harbormaster"

    def ready(self) -> None:
        # Django's place for this import: the app registry must be ready first.
        from harbormaster import embedded_celery

        # /healthz asks whether this process runs the embedded mode's worker.
        embedded_celery.register_health_check()
