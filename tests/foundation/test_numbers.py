"""``web.numbers``: the text ``floatformat`` and ``date`` write, for the pages' values."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import floatformat
from django.utils import timezone, translation

from web.numbers import decimal_separator, fixed, minute

EDGES = [0, 0.0, -0.0, 1, -1, 34, 34.0, 2.675, 0.125, -0.125, 1.005, -0.004, -0.04, 0.5,
         1.5, 2.5, -2.5, 99.995, 123456.789, 1e-7, -1e-9, 1e15, 2.0000001, 1 / 3, -2 / 3,
         26.666666666666668, 1_000_001, -7, float("inf"), float("nan")]  # fmt: skip
PLACES = [0, 1, 2, 3, -1, -2]


@pytest.mark.parametrize("places", PLACES)
def test_fixed_writes_what_floatformat_writes(places: int) -> None:
    rng = random.Random(places)
    values = [*EDGES]
    values += [rng.uniform(-100, 100) for _ in range(2000)]
    values += [round(rng.uniform(-100, 100), rng.randint(0, 4)) for _ in range(2000)]
    values += [rng.randint(-500, 500) / rng.choice([1, 2, 3, 4, 8, 40, 200]) for _ in range(2000)]
    for value in values:
        assert fixed(value, places) == floatformat(value, places), (value, places)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_fixed_writes_the_languages_separator(language: str) -> None:
    with translation.override(language):
        separator = decimal_separator()
        for value in (2.675, -0.004, 34, 1234567.891, 1 / 3):
            for places in PLACES:
                assert fixed(value, places, separator) == floatformat(value, places)


def test_fixed_writes_nothing_for_none() -> None:
    assert fixed(None, 2) == floatformat(None, 2) == ""


def test_minute_is_the_date_filter_in_the_current_time_zone() -> None:
    moment = datetime(2026, 3, 1, 23, 59, 59, 999_999, tzinfo=UTC)
    for zone in ("UTC", "Europe/Amsterdam", "America/St_Johns"):
        with timezone.override(zone):
            for shift in range(0, 48 * 60, 97):
                value = moment + timedelta(minutes=shift)
                assert minute(value) == date_filter(timezone.localtime(value), "Y-m-d H:i")
    naive = datetime(2026, 1, 2, 3, 4)
    assert minute(naive) == date_filter(naive, "Y-m-d H:i") == "2026-01-02 03:04"
    offset = datetime(2026, 1, 2, 3, 4, tzinfo=dt_timezone(timedelta(hours=5)))
    assert minute(offset) == "2026-01-01 22:04"
    assert minute(None) == ""
