"""The API's rate limits count per client as ``common.client_address`` sees it.

DRF's own throttles identify an anonymous client by ``X-Forwarded-For`` when
it is present (``NUM_PROXIES`` unset), which a client writes itself: a
rotating header made every request a new client. Here the ident is
:func:`common.client_address.throttle_ident`, which believes the header
only from ``TRUSTED_PROXIES``. Counts live in Django's cache (Redis with
servers), so every server process shares them.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling

from common.client_address import throttle_ident


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    """DRF's scoped throttle (views name a ``throttle_scope``), keyed on the real client."""

    def get_ident(self, request: Any) -> str:
        return throttle_ident(request)
