"""The admin app with the project's own site (Django's documented way to replace ``admin.site``).

Kept apart from ``admin_site.py`` because INSTALLED_APPS imports it before
models may be imported; ``admin.site`` and every ``admin.py`` stay as they are.
"""

from __future__ import annotations

from django.contrib.admin.apps import AdminConfig


class ThrottledAdminConfig(AdminConfig):
    default_site = "web.admin_site.ThrottledAdminSite"
