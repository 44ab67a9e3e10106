"""The admin site, whose login counts against the one login limit and answers a refusal plainly.

The admin's form checks the password through ``web.http.login_limit`` (allauth's
``login_failed`` limit, as the site's sign-in and the API's token exchange do),
so guesses here and there share one count. A refused attempt gets the login
form with the limit's message, HTTP 429 and ``Retry-After``, instead of the
usual "enter a correct username and password", which would look like a
verdict on the password.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path

from web.http import login_limit


class ThrottledAdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, authenticating through the login limit.

    Django's ``AuthenticationForm.clean`` with :func:`web.http.login_limit.authenticate`
    in place of ``django.contrib.auth.authenticate``; the limit's refusal is a
    ``ValidationError`` and lands among the form's errors.
    """

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            self.user_cache = login_limit.authenticate(
                self.request, username=username, password=password
            )
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


GUIDE = "organising.md"
"""The organisers' guide in docs/, shown inside the admin (issue #31: linked from the admin)."""


class ThrottledAdminSite(admin.AdminSite):
    login_form = ThrottledAdminLoginForm
    index_template = "admin/harbormaster_index.html"

    def get_urls(self) -> list[Any]:
        guide = path("guide/", self.admin_view(self.guide_view), name="organising-guide")
        return [guide, *super().get_urls()]

    def guide_view(self, request: HttpRequest) -> HttpResponse:
        """docs/organising.md, as written (Markdown reads as plain text), for staff."""
        try:
            text = (settings.BASE_DIR / "docs" / GUIDE).read_text(encoding="utf-8")
        except OSError:
            raise Http404("the organisers' guide is not installed with this copy") from None
        context = {**self.each_context(request), "title": "Running an event", "guide": text}
        return TemplateResponse(request, "admin/organising_guide.html", context)

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        response = super().login(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if response.status_code == 200 and form is not None and login_limit.refused(form):
            return login_limit.too_many(response)
        return response
