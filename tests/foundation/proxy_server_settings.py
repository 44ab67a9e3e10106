"""Settings of the uvicorn servers that show one client address reaching every part.

Small limits, so a few requests show who was counted: 3 failed sign-ins per
address (per account out of the way), 3 token requests a minute per address
(DRF), one play socket per address. And a page that answers what Django took
for the client (``proxy_urls``).
"""

from __future__ import annotations

from tests.foundation.server_settings import *  # noqa: F403
from tests.foundation.server_settings import ACCOUNT_RATE_LIMITS, REST_FRAMEWORK

ROOT_URLCONF = "tests.foundation.proxy_urls"
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "login_failed": "3/15m/ip,100/15m/key"}
_RATES = {**REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth-token": "3/minute"}
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": _RATES}
PLAY_SOCKETS_PER_ADDRESS = 1
