"""Settings of the uvicorn servers the throttle tests start: the project's, test hashers.

The servers check the passwords of users the test process made, hashed with
the tests' hashers (``tests/hashers.py``); a failed guess for an unknown name
costs the server a dummy hash, which with the production PBKDF2 took most of
these tests' time. Everything else is ``harbormaster.settings`` unchanged.
"""

from __future__ import annotations

from harbormaster.settings import *  # noqa: F403
from tests.hashers import FAST_PASSWORD_HASHERS

PASSWORD_HASHERS = FAST_PASSWORD_HASHERS
