"""The admin site, whose login page answers a throttled attempt plainly.

The counting itself happens in ``web.http.login_throttle`` (the
authentication backend), like on every login path; this only turns a refused
attempt into the login form with the refusal's message, HTTP 429 and
``Retry-After``, instead of the usual "enter a correct username and password",
which would look like a verdict on the password.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from web.http import login_throttle


class ThrottledAdminLoginForm(AdminAuthenticationForm):
    """The admin's login form; a throttled attempt gets the throttle's message."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            found = login_throttle.refusal(self.request)
            if found is None:
                raise
            raise ValidationError(found.message, code="throttled") from None


class ThrottledAdminSite(admin.AdminSite):
    login_form = ThrottledAdminLoginForm

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        response = super().login(request, extra_context)
        found = login_throttle.refusal(request)
        if found is not None and response.status_code == 200:
            response.status_code = 429
            response["Retry-After"] = str(found.retry_after)
        return response
