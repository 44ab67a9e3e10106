"""How django-allauth fits Harbormaster: one person per sign-up, one login throttle, one address.

* Sign-up saves the user and makes their person competitor and profile in one
  transaction (:func:`people.services.ensure_person`), so an account never
  exists without its person, nor the reverse.
* Every password check goes through ``web.http.login_throttle`` (the one
  authentication backend). A throttled attempt gets the throttle's message,
  not "the username and/or password are not correct", which would read as a
  verdict on the password.
* allauth's own rate limits (sign-up, password reset, failed logins) count
  clients as ``common.client_address.throttle_ident`` does, so
  ``TRUSTED_PROXIES`` means the same thing to them as to every other throttle.
* "Signed in" / "signed out" messages are dropped: the header says who is
  signed in, and the site's other pages show no messages.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.db import transaction
from django.http import HttpRequest

from common.client_address import throttle_ident
from people import services
from web.http import login_throttle

QUIET_MESSAGES = ("account/messages/logged_in.txt", "account/messages/logged_out.txt")


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        if not commit:
            return super().save_user(request, user, form, commit=False)
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=True)
            services.ensure_person(user)
            if form.cleaned_data.get("accepts_bot_opponents"):
                services.set_consent(user, True)
        return user

    def authenticate(self, request: HttpRequest, **credentials: Any) -> Any:
        user = super().authenticate(request, **credentials)
        if user is None:
            refused = login_throttle.refusal(request)
            if refused is not None:
                raise forms.ValidationError(refused.message, code="throttled")
        return user

    def get_client_ip(self, request: HttpRequest) -> str:
        return throttle_ident(request)

    def add_message(
        self,
        request: HttpRequest,
        level: int,
        message_template: str | None = None,
        message_context: dict[str, Any] | None = None,
        extra_tags: str = "",
        message: str | None = None,
    ) -> None:
        if message_template in QUIET_MESSAGES:
            return
        super().add_message(request, level, message_template, message_context, extra_tags, message)
