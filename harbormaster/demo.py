"""The demo: what ``make demo`` sets up before it serves the site.

Kept apart from the management command so that later issues can add their
steps (demo bots, demo games) here and tests can call them directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = "harbormaster-demo"
DEMO_ADMIN_EMAIL = "admin@example.com"


@dataclass(frozen=True)
class DemoAdmin:
    username: str
    password: str
    created: bool


def ensure_demo_admin() -> DemoAdmin:
    """Create the demo superuser, or reset it to the known password.

    Running it again is harmless, and the printed credentials always work.
    """
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=DEMO_ADMIN_USERNAME, defaults={"email": DEMO_ADMIN_EMAIL}
    )
    user.is_staff = True
    user.is_superuser = True
    user.is_active = True
    user.set_password(DEMO_ADMIN_PASSWORD)
    user.save()
    return DemoAdmin(DEMO_ADMIN_USERNAME, DEMO_ADMIN_PASSWORD, created)
