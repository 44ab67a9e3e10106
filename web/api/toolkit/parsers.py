"""The API's one request parser: JSON, with a nesting limit.

DRF's own JSON parser hands the body to ``json.load``, which recurses once
per nesting level: a 10 KB body of 5,000 ``[`` was a 500. This parser reads
the body through :func:`common.jsonparse.loads` instead, so any body
that is not acceptable JSON is a 400 ``parse_error`` in the API's error
shape. It is the only parser (settings ``DEFAULT_PARSER_CLASSES``): the API
and its documentation speak JSON only, and form or multipart bodies (which
could not express the nested seats and actions anyway) are a 415.

One exception: the token exchange (``POST /api/v1/auth/token/``) also reads
a form (:class:`FlatFormParser`), since ``curl -d username=… -d password=…``
is what a command-line user types first. Its two fields are flat strings, so
a form says exactly what the JSON says.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import TooManyFieldsSent
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, get_encoding

from common import jsonparse


class LimitedJSONParser(JSONParser):
    """``application/json`` bodies, nested at most ``jsonparse.MAX_DEPTH`` deep."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = stream.read() if stream is not None else b""
        encoding = get_encoding(parser_context or {})  # refuses non-text codecs
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - the body is not {encoding}: {exc}") from None
        try:
            return jsonparse.loads(text)
        except jsonparse.JSONRefused as refused:
            raise ParseError(f"JSON parse error - {refused}") from None


class FlatFormParser(FormParser):
    """``application/x-www-form-urlencoded`` bodies as a plain dict, each field given once.

    A plain dict (not Django's ``QueryDict``) makes the serializer read a form
    exactly as it reads the same fields in JSON; a repeated field would
    otherwise be read as its last value without a word, so it is a 400.
    """

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            form = super().parse(stream, media_type, parser_context)
        except TooManyFieldsSent as exc:
            raise ParseError(f"form parse error - {exc}") from None
        repeated = sorted(name for name, values in form.lists() if len(values) > 1)
        if repeated:
            raise ParseError(f"form parse error - give each field once: {', '.join(repeated)}")
        return form.dict()
