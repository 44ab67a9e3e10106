"""The Harbormaster bot SDK: write a function, get a bot endpoint.

Standard library only, no Django::

    from botapi.sdk import serve

    def act(turn):
        return 0  # the index of the chosen action in turn.legal_actions

    serve(act, port=8000, secret="...", name="my-bot")

See ``botapi/sdk/README.md`` and ``docs/bot-protocol.md``.
"""

from botapi.signing import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    SignatureError,
    compute_signature,
    sign_headers,
    verify_signature,
)

from .server import (
    SECRET_ENV,
    BotServer,
    RunningBot,
    Turn,
    answer_budget_ms,
    serve,
    serve_in_background,
)

__all__ = [
    "SECRET_ENV",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "BotServer",
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
