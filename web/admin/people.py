"""Admin page for people's profiles: read-only, since consent is the person's own choice.

Staff can see who accepts bot opponents; only the person changes it (on /me/).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from people.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    """No add or change; delete stays allowed so that deleting a user in the admin works."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    list_display = ("user", "competitor", "accepts_bot_opponents", "updated_at")
    list_filter = ("accepts_bot_opponents",)
    search_fields = ("user__username", "competitor__name")
