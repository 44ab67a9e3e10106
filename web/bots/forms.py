"""The owner page's forms: the log's filters (GET) and the alert webhook (POST)."""

from __future__ import annotations

from django import forms

from botapi import services
from botapi.owner_log import ANY_FAULT, FAULT_KINDS, LogFilter, parse_cursor
from botapi.ssrf import EndpointRefused


class LogFilterForm(forms.Form):
    """``?fault=&game=&before=``: a fault kind (or any fault), a game id, the page's cursor."""

    fault = forms.ChoiceField(
        required=False,
        choices=[("", "all moves"), (ANY_FAULT, "any fault")]
        + [(kind, kind) for kind in FAULT_KINDS],
        label="Fault",
    )
    game = forms.IntegerField(required=False, min_value=1, max_value=2**63 - 1, label="Game")
    before = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def log_filter(self) -> LogFilter:
        """The filter asked for; an invalid form filters nothing (its errors are shown)."""
        if not self.is_valid():
            return LogFilter()
        data = self.cleaned_data
        return LogFilter(
            fault=data["fault"], game=data["game"], before=parse_cursor(data["before"])
        )


class WebhookForm(forms.Form):
    """The alert webhook URL: checked by the SSRF guard like an endpoint; empty removes it."""

    alert_webhook_url = forms.CharField(
        required=False,
        max_length=500,
        label="Webhook URL",
        widget=forms.URLInput(attrs={"placeholder": "https://bots.example.org/alerts"}),
    )

    def clean_alert_webhook_url(self) -> str:
        url = (self.cleaned_data.get("alert_webhook_url") or "").strip()
        if not url:
            return ""
        try:
            return services.check_endpoint_url(url)
        except EndpointRefused as refused:
            raise forms.ValidationError(str(refused)) from None
