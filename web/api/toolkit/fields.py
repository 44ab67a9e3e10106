"""Serializer fields with a size bound checked before anything else runs.

A list or object from a client is checked item by item, and some items cost
a query or an engine call. Every collection the API accepts is therefore
bounded, and the bound is checked first: a 20,000-seat game request took
417 s before, one database lookup per seat.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers


class BoundedDictField(serializers.DictField):
    """A JSON object of at most ``max_items`` keys (refused before its values are read)."""

    default_error_messages = {
        "max_items": "Ensure this object has no more than {max_items} keys (it has {count})."
    }

    def __init__(self, *, max_items: int, **kwargs: Any) -> None:
        self.max_items = max_items
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict) and len(data) > self.max_items:
            self.fail("max_items", max_items=self.max_items, count=len(data))
        return super().to_internal_value(data)


class BoundedDictFieldSchema(OpenApiSerializerFieldExtension):
    """The bound is part of the schema (``maxProperties``)."""

    target_class = BoundedDictField

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "maxProperties": self.target.max_items}


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer, exactly: ``1.0``, ``"1"`` and ``true`` are refused, not converted.

    DRF's IntegerField accepts anything ``int()`` takes; the protocol says an
    integer in JSON, and a bot that sends ``"0"`` should learn it, not be
    guessed at.
    """

    default_error_messages = {"not_integer": "Must be a JSON integer (not {kind})."}

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            kinds = {bool: "a boolean", str: "a string", float: "a decimal number"}
            self.fail("not_integer", kind=kinds.get(type(data), "null" if data is None else "that"))
        return super().to_internal_value(data)


POSITION_HELP = (
    "The seat's 0-based position in seat order: 0 moves first where it matters. The pages "
    "number seats from 1 (the API's position 0 is seat 1 on a page)."
)
"""Every seat's ``position`` in the API says so the same way (issue #31: pages count from 1)."""
