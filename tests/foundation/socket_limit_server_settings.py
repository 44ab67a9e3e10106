"""Settings of the uvicorn servers that show a game's socket limit held across processes."""

from __future__ import annotations

from tests.foundation.server_settings import *  # noqa: F403

PLAY_SOCKETS_PER_GAME = 3
