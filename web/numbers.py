"""Numbers and dates as the templates' filters write them, without a filter call per cell.

``floatformat`` parses the number's text into a ``Decimal``, rounds it and
localises it through several calls per cell: 600 cells of a competitor's
head-to-head took about 28 ms of a cold render (cProfile), and the game lists
call it for every seat's score. :func:`fixed` gives the same text for the
numbers the pages show (``int`` and finite ``float``: the same ``Decimal`` of
the value's ``repr``, rounded half up, no minus sign on a zero), and hands
anything else to ``floatformat`` itself. :func:`minute` is ``|date:"Y-m-d
H:i"`` in the current time zone. ``floatformat`` localises the decimal
separator (the site serves ``en-us`` only, but a template rendered under
another language would show its separator): a caller asks
:func:`decimal_separator` once per table and passes it on. No thousands
separator: ``USE_THOUSAND_SEPARATOR`` is off, which this relies on.
``tests/foundation/test_numbers.py`` compares both with the filters.
"""

from __future__ import annotations

import math
from datetime import datetime
from decimal import ROUND_HALF_UP, Context, Decimal

from django.template.defaultfilters import floatformat
from django.utils import formats, timezone

_CONTEXT = Context(prec=100)
_STEPS = {places: Decimal(1).scaleb(-places) for places in range(7)}


def decimal_separator() -> str:
    """The current language's decimal separator, as ``floatformat`` writes it."""
    return str(formats.get_format("DECIMAL_SEPARATOR"))


def fixed(value: float | int | None, places: int, separator: str = ".") -> str:
    """``value|floatformat:places``; a negative ``places`` drops the decimals of a whole number.

    Empty for ``None``, as the filter is. ``separator``: :func:`decimal_separator`.
    """
    if value is None:
        return ""
    if type(value) not in (int, float) or not math.isfinite(value) or abs(places) not in _STEPS:
        return str(floatformat(value, places))
    number = Decimal(repr(value))
    if places <= 0 and number == int(number):
        return str(int(number))
    rounded = number.quantize(_STEPS[abs(places)], ROUND_HALF_UP, _CONTEXT)
    if not rounded:
        rounded = abs(rounded)  # the filter writes no sign on a zero
    text = f"{rounded:f}"
    return text if separator == "." else text.replace(".", separator)


def minute(moment: datetime | None) -> str:
    """``moment|date:"Y-m-d H:i"``: in the current time zone when aware; empty for ``None``."""
    if moment is None:
        return ""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return moment.strftime("%Y-%m-%d %H:%M")
