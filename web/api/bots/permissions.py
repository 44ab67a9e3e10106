"""Owners touch only their own bots.

The views already look bots up among the requester's own (another user's
bot is a 404, so its existence is not even confirmed); this permission is
the second lock on the same door.
"""

from __future__ import annotations

from typing import Any

from rest_framework import permissions


class IsBotOwner(permissions.BasePermission):
    message = "only the bot's owner may do this"

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        return getattr(obj, "owner_id", None) == request.user.pk
