"""One limit on failed logins, for every login path: allauth's ``login_failed`` rate limit.

The site's sign-in is allauth's own form. The admin's login form and the API's
token exchange check a password through the same call, :func:`authenticate`
(allauth's account adapter), so a guess on any of the three counts against the
same account and the same address, with the rates of
``ACCOUNT_RATE_LIMITS["login_failed"]``:

- An attempt is counted before its password is looked at; over a limit it is
  refused unchecked (a ``ValidationError`` with code :data:`LOCKED`), so a
  refusal says nothing about whether the password was right.
- The address is the throttles' one (``common.client_address.throttle_ident``,
  through the adapter's ``get_client_ip``); the account is the username as
  typed, case-insensitively, whether it exists or not (``web.people.adapter``).
- The address is counted before the account, and the count that refuses an
  attempt does not record it: an address over its limit does not go on to run
  up the counts of the accounts it names.
- A successful login takes its own attempt back (allauth's rollback): it never
  counts against an address, but the failures before it stay counted.

Every path answers a refusal with HTTP 429 and ``Retry-After``
(:func:`retry_after`): the API as ``throttled``, the two forms with allauth's
message on the form.
"""

from __future__ import annotations

import math
from typing import Any

from allauth.account.adapter import get_adapter
from allauth.core.internal.ratelimit import get_rates
from django.http import HttpResponse

LOCKED = "too_many_login_attempts"
"""The code of allauth's error when ``login_failed`` refuses an attempt."""


def authenticate(request: Any, *, username: str, password: str) -> Any:
    """The user with these credentials, or None; counted against the limit.

    Raises allauth's ``ValidationError`` (code :data:`LOCKED`) when the account
    or the address is over its limit; the password is then not checked.
    """
    return get_adapter(request).authenticate(request, username=username, password=password)


def refused(form: Any) -> bool:
    """Whether a bound login form was refused by the limit (one of its errors is :data:`LOCKED`)."""
    return any(
        error.code == LOCKED for errors in form.errors.as_data().values() for error in errors
    )


def retry_after() -> int:
    """An upper bound on how long a refusal lasts: the longest ``login_failed`` period.

    allauth keeps the times of counted failures for each rate's period, and a
    refused attempt adds none to the rate that refused it, so once the longest
    period has passed every failure counted until now has expired.
    """
    rates = get_rates(app="allauth.account", action="login_failed")
    return math.ceil(max((rate.duration for rate in rates), default=1))


def too_many(response: HttpResponse) -> HttpResponse:
    """A login form's page that shows the refusal, as 429 with ``Retry-After``."""
    response.status_code = 429
    response["Retry-After"] = str(retry_after())
    return response
