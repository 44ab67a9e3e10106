"""The user admin, with one change: a user whose deletion would reach game records says why.

Deleting a user cascades to their competitors and bots; seats and rating
changes protect those (``PROTECT``), so a user who has played is refused, and
the page names the seats instead of a bare "no permission".
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from web.admin.games import NamesProtectedRecords

User = get_user_model()

admin.site.unregister(User)


@admin.register(User)
class RecordAwareUserAdmin(NamesProtectedRecords, UserAdmin):
    pass
