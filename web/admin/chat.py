"""Admin pages for table chat: staff read every message and hide one, recorded with who and when.

Messages are not edited or deleted here: hiding (``web.sockets.chat.hide``,
through ``chat.services.hide``) keeps the text for the record and drops it
from every page and open socket.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from chat.models import Message
from chat.selectors import ChatError
from web.sockets import chat as table_chat


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "author", "from_player", "text", "created_at", "hidden_at")
    list_filter = ("from_player", ("hidden_at", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__name")
    list_select_related = ("author", "hidden_by")
    readonly_fields = (
        "game",
        "author",
        "from_player",
        "text",
        "created_at",
        "hidden_at",
        "hidden_by",
    )
    raw_id_fields = ("game",)
    actions = ["hide_messages"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Hide the selected messages from every page")
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        hidden = 0
        for pk in queryset.values_list("pk", flat=True):
            try:
                table_chat.hide(pk, request.user)
            except ChatError as refused:
                self.message_user(request, refused.detail, messages.ERROR)
                return
            hidden += 1
        self.message_user(request, f"{hidden} message(s) hidden.", messages.SUCCESS)
