"""A serializer's output for many plain records, without DRF's per-record machinery.

``GET /api/v1/games/`` turns 50 records (dicts from ``spectator.game_record``)
into JSON through ``GameSerializer(records, many=True).data``: DRF deep-copies
the serializer's fields for each new serializer, then per record and per field
looks the value up through ``get_attribute`` (an ``isinstance(…, Mapping)``
per field) and builds its nested serializers' rows the same way. Under
cProfile that machinery was about 40% of a cold games page; the fields' own
``to_representation`` a small part of it.

:func:`representer` walks a serializer class once and returns a function that
writes the same dict: the same field instances (so every number, date and
choice is converted by DRF's own code), the same order, ``None`` kept as
``None`` without conversion, as ``Serializer.to_representation`` does, nested
serializers and ``many=True`` lists handled alike. Only for what such records
are: every field reads the key of its own name (no ``source``, no method
field); :func:`representer` refuses anything else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rest_framework import serializers

Representer = Callable[[Mapping[str, Any]], dict[str, Any]]


def _convert(field: serializers.Field) -> Callable[[Any], Any]:
    """What ``field`` writes for a value that is not ``None``."""
    if isinstance(field, serializers.ListSerializer):
        child = representer(type(field.child))
        return lambda items: [child(item) for item in items]
    if isinstance(field, serializers.Serializer):
        return representer(type(field))
    return field.to_representation


def representer(serializer_class: type[serializers.Serializer]) -> Representer:
    """A function writing what ``serializer_class(record).data`` holds, for a mapping record."""
    fields = []
    for name, field in serializer_class().fields.items():
        if field.write_only:
            continue
        if field.source != name or isinstance(field, serializers.SerializerMethodField):
            raise ValueError(f"{serializer_class.__name__}.{name} reads more than its own key")
        fields.append((name, _convert(field)))

    def represent(record: Mapping[str, Any]) -> dict[str, Any]:
        data = {}
        for name, convert in fields:
            value = record[name]
            data[name] = None if value is None else convert(value)
        return data

    return represent
