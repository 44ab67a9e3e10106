"""``ReadOnlyAdmin``: admin pages for rows only the code writes.

Here, below the apps, so every app's admin (games' records, ratings'
ladders) can use it without importing another app's admin.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """The referee writes these rows; people only read them (no add, change or delete)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
