"""Settings of the uvicorn servers the socket tests start: many sockets, a short body timeout.

Every socket of these tests comes from 127.0.0.1 to one game, so the address
and game limits are raised out of the way (the limits have tests of their
own, ``tests/tournaments/play/test_socket_limits.py``); a stalled body is
dropped after a second instead of 30 so the test is quick.
"""

from __future__ import annotations

from tests.foundation.server_settings import *  # noqa: F403

PLAY_SOCKETS_PER_ADDRESS = 1000
PLAY_SOCKETS_PER_GAME = 1000
REQUEST_BODY_TIMEOUT = 1.0
