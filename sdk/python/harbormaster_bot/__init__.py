"""The Harbormaster bot SDK: write a function, get a bot endpoint.

Standard library only, no Django::

    from harbormaster_bot import serve

    def act(turn):
        return 0  # the index of the chosen action in turn.legal_actions

    serve(act, port=8001, secret="...", name="my-bot")

See ``sdk/python/README.md`` and ``docs/bot-protocol.md``.
"""

from harbormaster_bot.signing import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    SignatureError,
    compute_signature,
    sign_headers,
    verify_signature,
)

from .server import (
    DEFAULT_PORT,
    SECRET_ENV,
    BotServer,
    MissingSecret,
    PortInUse,
    RunningBot,
    Turn,
    answer_budget_ms,
    serve,
    serve_in_background,
)

__all__ = [
    "DEFAULT_PORT",
    "SECRET_ENV",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "BotServer",
    "MissingSecret",
    "PortInUse",
    "RunningBot",
    "SignatureError",
    "Turn",
    "answer_budget_ms",
    "compute_signature",
    "serve",
    "serve_in_background",
    "sign_headers",
    "verify_signature",
]
