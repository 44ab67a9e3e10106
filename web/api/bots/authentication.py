"""Authentication of a pull-mode bot by its own token (for the pull API's views).

A bot sends ``Authorization: Bot <pull token>``. On success ``request.user``
is the bot's owner and ``request.auth`` is the :class:`botapi.models.Bot`;
views of the pull API should use this class alone (a user's token must not
act as a bot) and check ``request.auth.is_active`` themselves, so that a
suspended bot gets a clear answer instead of a generic 401.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from botapi.services import bot_for_pull_token

KEYWORD = "Bot"


class BotTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                f'send the header as "Authorization: {KEYWORD} <pull token>"'
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("the pull token has invalid characters") from None
        bot = bot_for_pull_token(token)
        if bot is None:
            raise exceptions.AuthenticationFailed(
                "unknown pull token (it may have been rotated, or the bot is not in pull mode)"
            )
        return bot.owner, bot

    def authenticate_header(self, request: Any) -> str:
        return KEYWORD


class BotTokenScheme(OpenApiAuthenticationExtension):
    """How drf-spectacular documents :class:`BotTokenAuthentication`."""

    target_class = "web.api.bots.authentication.BotTokenAuthentication"
    name = "botToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'A pull-mode bot\'s token, as "Bot <token>".',
        }
