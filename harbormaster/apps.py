"""App configuration for ``harbormaster`` (the project's own modules)."""

from django.apps import AppConfig


class HarbormasterConfig(AppConfig):
    name = "harbormaster"
    verbose_name = "Harbormaster"

    def ready(self) -> None:
        # Django's place for these: models and what imports them load once the apps are ready.
        from games.referee import dispatch
        from harbormaster import embedded_scheduler

        # The referee (in games) sets the embedded mode's clocks through this.
        dispatch.register_timer(embedded_scheduler.call_later)
