"""App configuration for ``chat``: what the people at a table and its spectators say."""

from __future__ import annotations

from django.apps import AppConfig


class ChatConfig(AppConfig):
    """Table chat: messages, the players' spectator setting, mutes and staff's hiding."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = "table chat"
