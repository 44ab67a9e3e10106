"""How django-allauth fits Harbormaster: one person per sign-up, one login limit, one address.

* Sign-up saves the user and makes their person competitor and profile in one
  transaction (:func:`people.services.ensure_person`), so an account never
  exists without its person, nor the reverse.
* allauth's ``login_failed`` rate limit is the one limit on failed logins, on
  every login path (``web.http.login_limit``). Its per-account count is kept
  per username alone (:meth:`AccountAdapter._get_login_attempts_cache_key`).
* allauth's rate limits (sign-up, password reset, failed logins) count
  clients as ``common.client_address.throttle_ident`` does: the address
  uvicorn reported, an IPv6 client by its /64, as every other throttle.
* "Signed in" / "signed out" messages are dropped: the header says who is
  signed in, and the site's other pages show no messages.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.db import transaction
from django.http import HttpRequest

from common.client_address import throttle_ident
from people import services

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

    def get_client_ip(self, request: HttpRequest) -> str:
        return throttle_ident(request)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """The account a login attempt counts against: the username as typed, lower-cased.

        allauth puts the site's domain in front, which without
        ``django.contrib.sites`` is the request's ``Host`` header, port
        included: a client sending a new port with every guess would name a new
        account each time and never meet the per-account limit. The service is
        one site, so the name alone. (allauth's hook for this key; it has no
        public one.)
        """
        login = credentials.get("email", credentials.get("username", ""))
        return str(login).lower()

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
