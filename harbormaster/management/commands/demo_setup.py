"""``manage.py demo_setup``: prepare the demo data ``make demo`` serves."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from harbormaster.demo import ensure_demo_admin


class Command(BaseCommand):
    help = "Create (or reset) the demo admin account and print its credentials."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="where the demo will be served, for the printed links",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "demo_setup creates an admin with a published password; it runs only with DEBUG on"
            )
        admin = ensure_demo_admin()
        url = options["url"].rstrip("/")
        verb = "Created" if admin.created else "Reset"
        self.stdout.write(self.style.SUCCESS(f"{verb} the demo admin account."))
        self.stdout.write(f"  site:     {url}/")
        self.stdout.write(f"  admin:    {url}/admin/")
        self.stdout.write(f"  username: {admin.username}")
        self.stdout.write(f"  password: {admin.password}")
