"""Admin pages for ``botapi``.

The staff can register a bot, change its status and reason (e.g. disable a
bot that abuses the service) and its settings. The signing secret and the
pull token are never displayed: the model marks them not editable, so no
form shows them; a new bot's secret is shown once, in the message after
saving, as the API shows it once.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from botapi.models import Bot
from botapi.services import bots as services
from botapi.ssrf import EndpointRefused
from tournaments.models import engine_choices
from web.admin.games import NamesProtectedRecords


class BotAdminForm(forms.ModelForm):
    # One checkbox per registered engine; saves the same JSON list of slugs the API saves.
    engines = forms.MultipleChoiceField(
        choices=engine_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text="The engines this bot plays.",
    )

    class Meta:
        model = Bot
        fields = [
            "owner",
            "name",
            "description",
            "engines",
            "mode",
            "endpoint_url",
            "max_concurrent_games",
            "visibility",
            "alert_webhook_url",
            "status",
            "status_reason",
        ]

    def clean_endpoint_url(self) -> str:
        return self._checked_url("endpoint_url")

    def clean_alert_webhook_url(self) -> str:
        return self._checked_url("alert_webhook_url")

    def _checked_url(self, name: str) -> str:
        """The SSRF guard for every URL the server will POST to."""
        url = (self.cleaned_data.get(name) or "").strip()
        if not url:
            return ""
        try:
            return services.check_endpoint_url(url)
        except EndpointRefused as refused:
            raise forms.ValidationError(str(refused)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        anchor = self.instance is not None and self.instance.is_anchor  # played in-process
        if data.get("mode") == Bot.Mode.PUSH and not data.get("endpoint_url") and not anchor:
            self.add_error("endpoint_url", "a push bot needs an endpoint URL")
        return data


@admin.register(Bot)
class BotAdmin(NamesProtectedRecords, admin.ModelAdmin):
    form = BotAdminForm
    list_display = [
        "name",
        "owner",
        "mode",
        "visibility",
        "status",
        "last_ping_ok",
        "last_ping_at",
        "consecutive_faulty_games",
        "created_at",
    ]
    list_filter = ["status", "mode", "visibility"]
    search_fields = ["name", "owner__username", "endpoint_url"]
    list_select_related = ["owner"]
    readonly_fields = [
        "competitor",
        "pull_token_hint",
        "status_changed_at",
        "last_ping_at",
        "last_ping_ok",
        "last_ping_detail",
        "last_ping_latency_ms",
        "consecutive_faulty_games",
        "previous_version",
        "created_at",
        "updated_at",
    ]

    def get_readonly_fields(self, request: Any, obj: Bot | None = None) -> list[str]:
        # The owner of an existing bot is fixed: its competitor, seats and ratings are theirs.
        extra = ["owner"] if obj is not None else []
        return [*self.readonly_fields, *extra]

    def save_model(self, request: Any, obj: Bot, form: forms.ModelForm, change: bool) -> None:
        if change:
            if "status" in form.changed_data:
                obj.status_changed_at = timezone.now()
            if "mode" in form.changed_data and obj.mode == Bot.Mode.PUSH:
                obj.pull_token_hash = obj.pull_token_hint = ""  # as services.update_bot does
            if "name" in form.changed_data:
                obj.competitor.name = services.competitor_name(obj.owner, obj.name)
                obj.competitor.save(update_fields=["name"])
            super().save_model(request, obj, form, change)
            return
        bot, credentials = services.register_bot(
            form.cleaned_data["owner"],
            name=obj.name,
            engines=obj.engines,
            mode=obj.mode,
            endpoint_url=obj.endpoint_url,
            description=obj.description,
            max_concurrent_games=obj.max_concurrent_games,
            visibility=obj.visibility,
        )
        if obj.status != Bot.Status.ACTIVE:
            bot.status, bot.status_reason = obj.status, obj.status_reason
            bot.save(update_fields=["status", "status_reason"])
        obj.pk = bot.pk
        obj.refresh_from_db()
        shown = f"Signing secret (shown only now): {credentials.signing_secret}"
        if credentials.pull_token:
            shown += f" - pull token: {credentials.pull_token}"
        messages.warning(request, shown)

    # Deleting a bot is deleting its competitor (``services.delete_bot``): the
    # delete pages list what that removes, and name the seats that protect a
    # bot with game history, so it is refused there as the API refuses it.
    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        competitors = [bot.competitor for bot in objs]
        return super().get_deleted_objects(competitors, request)

    def delete_model(self, request: HttpRequest, obj: Bot) -> None:
        services.delete_bot(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Bot]) -> None:
        with transaction.atomic():
            for bot in queryset.select_related("competitor"):
                services.delete_bot(bot)
