"""The OpenAPI schema says exactly what the server answers (settings ``DEFAULT_SCHEMA_CLASS``).

drf-spectacular documents the success answers and the errors a view names.
The framework's own answers are derived here from how each view is set up,
so they cannot drift from it:

* 400 when the operation reads a body or query parameters (field errors, or
  ``{detail, code}`` for a body that is not acceptable JSON);
* 401 when the view authenticates (a malformed or unknown credential is a
  401 even where anonymous calls are welcome);
* 404 for a path parameter (no such object, or not yours) and for a page
  past the end of a list;
* 413 and 415 when it reads a body (too large; not of a media type it reads);
* 429 when a rate limit applies to it.

A list of nested serializers carries its length bounds (``maxItems``).

Request bodies of serializers that refuse unknown fields say so
(``additionalProperties: false``), and fields a serializer names in
``exclusive_fields`` are exactly-one-of (``oneOf`` on ``required``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import serializers

from web.api.bots.serializers import RefuseUnknownFieldsMixin

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "What went wrong (`detail`) and a stable code (`code`).",
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "required": ["detail", "code"],
    "additionalProperties": False,
}
FIELD_ERRORS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "Invalid input: each key names a field (`non_field_errors` for the request as a "
        "whole; nested fields and list positions nest), each value lists the problems."
    ),
    "additionalProperties": True,
}
ERRORS = {
    "400": (
        "Invalid input: field errors, or `parse_error` for a body that cannot be read "
        "(JSON malformed or nested too deep, a form field given twice)."
    ),
    "401": "No valid credentials (`not_authenticated`, `authentication_failed`).",
    "404": "No such resource, or not yours (`not_found`).",
    "413": "The request body is larger than the server accepts (`request_too_large`).",
    "415": (
        "The body is of a media type the operation does not read (`unsupported_media_type`): "
        "JSON everywhere, a form too where the request body lists one."
    ),
    "429": "Too many requests; `detail` says when to retry (`throttled`).",
}


class ApiAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema plus the answers of the framework itself (module doc)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        for status in self._framework_statuses(operation):
            self._document(responses, status)
        for status, response in responses.items():
            if status.startswith("4") and "content" not in response:
                # A view named the status (409 ...) with a description only.
                response["content"] = {"application/json": {"schema": self._error_ref()}}
        return operation

    def _framework_statuses(self, operation: dict[str, Any]) -> list[str]:
        parameters = operation.get("parameters", [])
        where = {parameter["in"] for parameter in parameters}
        names = {parameter["name"] for parameter in parameters}
        body = "requestBody" in operation
        statuses = []
        if body or "query" in where:
            statuses.append("400")
        if self.view.get_authenticators():
            statuses.append("401")
        if "path" in where or "page" in names:
            statuses.append("404")
        if body:
            statuses += ["413", "415"]
        if self._throttled():
            statuses.append("429")
        return statuses

    def _throttled(self) -> bool:
        throttles = self.view.get_throttles()  # may set the view's scope for this action
        scope = getattr(self.view, "throttle_scope", None)
        return any(getattr(t, "scope_attr", None) is None or scope for t in throttles)

    def _document(self, responses: dict[str, Any], status: str) -> None:
        error = self._error_ref()
        schema = {"anyOf": [error, FIELD_ERRORS_SCHEMA]} if status == "400" else error
        response = responses.setdefault(status, {"description": ERRORS[status]})
        response.setdefault("content", {"application/json": {"schema": schema}})

    def _error_ref(self) -> dict[str, Any]:
        """A reference to the shared ``Error`` component (registered on first use)."""
        component = ResolvedComponent(
            name="Error", type=ResolvedComponent.SCHEMA, object="Error", schema=ERROR_SCHEMA
        )
        if component not in self.registry:
            self.registry.register(component)
        return component.ref

    def _map_serializer_field(
        self, field: Any, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, serializers.ListSerializer) and schema is not None:
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
            if field.min_length is not None:
                schema["minItems"] = field.min_length
        return schema

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        if direction != "request":
            return schema
        if isinstance(serializer, RefuseUnknownFieldsMixin):
            schema["additionalProperties"] = False
        exclusive = getattr(serializer, "exclusive_fields", ())
        if exclusive:
            schema["oneOf"] = [{"required": [name]} for name in exclusive]
        return schema
